import Foundation
public import HTTPTypes
import Hummingbird
public import HummingbirdTesting
import NIOCore
import NIOFoundationCompat
public import WardenCore
import WardenServer
public import WardenWire

extension TestWarden {
    /// A confidential client stored directly (no Management API involved), with its secret.
    public func makeClient(
        grantTypes: [GrantType] = [.clientCredentials], configure: (inout Client) -> Void = { _ in }
    ) async throws -> (id: String, secret: String) {
        let id = RandomToken.identifier(prefix: "client-", length: 16)
        let secret = RandomToken.make()
        var client = Client(clientID: id, name: "Test client \(id)")
        client.grantTypes = grantTypes
        configure(&client)
        let now = clock.now()
        try await runtime.store.insertClient(
            ClientRecord(client: client, secretHash: SecretHash.sha256Hex(secret), createdAt: now, updatedAt: now))
        try await runtime.cache.reload()
        return (id, secret)
    }

    /// An API with `scopes`, stored directly.
    public func makeAPI(
        scopes: [String] = ["read:things", "write:things"], configure: (inout ResourceServer) -> Void = { _ in }
    ) async throws -> ResourceServer {
        let identifier = "https://api-\(RandomToken.identifier(prefix: "", length: 10)).example.com/"
        var api = ResourceServer(
            id: RandomToken.identifier(prefix: "", length: 24), identifier: identifier, name: identifier)
        api.scopes = scopes.map { .init(value: $0) }
        configure(&api)
        try await runtime.store.insertResourceServer(api)
        try await runtime.cache.reload()
        return api
    }

    /// A client grant of `clientID` for `audience`.
    public func grant(clientID: String, audience: String, scope: [String]) async throws {
        try await runtime.store.insertClientGrant(
            ClientGrant(
                id: RandomToken.identifier(prefix: "cgr_", length: 16), clientID: clientID, audience: audience,
                scope: scope))
        try await runtime.cache.reload()
    }
}

extension TestClientProtocol {
    /// POSTs a form body.
    public func postForm(
        _ uri: String, _ fields: [(String, String)], headers: HTTPFields = [:]
    ) async throws -> TestResponse {
        var headers = headers
        headers[.contentType] = "application/x-www-form-urlencoded"
        let body = fields.map { "\(formEncode($0.0))=\(formEncode($0.1))" }.joined(separator: "&")
        return try await execute(uri: uri, method: .post, headers: headers, body: ByteBuffer(string: body))
    }

    /// POSTs a JSON body.
    public func postJSON(_ uri: String, _ json: String, headers: HTTPFields = [:]) async throws -> TestResponse {
        var headers = headers
        headers[.contentType] = "application/json"
        return try await execute(uri: uri, method: .post, headers: headers, body: ByteBuffer(string: json))
    }
}

/// `application/x-www-form-urlencoded` encoding of one name or value.
public func formEncode(_ text: String) -> String {
    var allowed = CharacterSet.alphanumerics
    allowed.insert(charactersIn: "-._~")
    return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
}

extension TestResponse {
    /// The body parsed as JSON.
    public var json: JSONValue {
        (try? JSONValue(parsing: body.readableBytesView)) ?? .null
    }
}
