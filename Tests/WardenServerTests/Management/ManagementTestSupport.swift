import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
import WardenCore
import WardenTesting
import WardenWire

/// A Management API session for tests: an in-process client and a Bearer token (SPEC §9).
struct ManagementSession {
    let http: any TestClientProtocol
    let token: String

    /// Calls `uri` (under `/api/v2/`) with the token, and `json` (or `raw` text) as the body.
    @discardableResult
    func call(
        _ method: HTTPRequest.Method, _ uri: String, json: JSONValue? = nil, raw: String? = nil
    ) async throws -> TestResponse {
        var headers: HTTPFields = [.authorization: "Bearer \(token)"]
        let text = raw ?? json?.serialized
        if text != nil { headers[.contentType] = "application/json" }
        return try await http.execute(
            uri: "/api/v2/" + uri, method: method, headers: headers, body: text.map { ByteBuffer(string: $0) })
    }

    /// Calls and expects `status`, returning the JSON body.
    @discardableResult
    func expect(
        _ status: HTTPResponse.Status, _ method: HTTPRequest.Method, _ uri: String, json: JSONValue? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> JSONValue {
        let response = try await call(method, uri, json: json)
        #expect(response.status == status, "\(String(buffer: response.body))", sourceLocation: sourceLocation)
        return response.json
    }

    /// Calls and expects the Management error shape with `status` and `errorCode` (SPEC §9).
    @discardableResult
    func expectError(
        _ status: Int, _ errorCode: String, _ method: HTTPRequest.Method, _ uri: String, json: JSONValue? = nil,
        raw: String? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> String {
        let response = try await call(method, uri, json: json, raw: raw)
        WardenTesting.expectError(
            response, status: .init(code: status), code: errorCode, shape: .management, sourceLocation: sourceLocation)
        return response.json["message"]?.stringValue ?? ""
    }

    /// A session of the bootstrap management client (every scope).
    static func make(_ warden: TestWarden, _ http: any TestClientProtocol) async throws -> ManagementSession {
        ManagementSession(http: http, token: try await warden.managementToken(client: http))
    }

    /// A session of a new client whose grant on the Management API carries only `scopes`, made through the
    /// Management API and `client_credentials` as an operator would.
    func restricted(to scopes: [String]) async throws -> ManagementSession {
        let client = try await expect(
            .created, .post, "clients",
            json: ["name": "Restricted", "app_type": "non_interactive", "grant_types": ["client_credentials"]])
        let id = try #require(client["client_id"]?.stringValue)
        let secret = try #require(client["client_secret"]?.stringValue)
        try await expect(
            .created, .post, "client-grants",
            json: [
                "client_id": .string(id), "audience": .string(Self.audience),
                "scope": .array(scopes.map { .string($0) }),
            ])
        let response = try await http.postForm(
            "/oauth/token",
            [
                ("grant_type", "client_credentials"), ("client_id", id), ("client_secret", secret),
                ("audience", Self.audience),
            ])
        return ManagementSession(http: http, token: try #require(response.json["access_token"]?.stringValue))
    }

    static let audience = "http://127.0.0.1:8080/api/v2/"

    /// Path-encodes a path segment (`|`, `/`, `:`), as the vendor SDKs do.
    static func segment(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? text
    }
}

extension TestWarden {
    /// Runs `body` with a Management session of the bootstrap client.
    @discardableResult
    func management<Value: Sendable>(
        _ body: @Sendable (ManagementSession) async throws -> Value
    ) async throws -> Value {
        try await test { http in try await body(try await ManagementSession.make(self, http)) }
    }
}

extension JSONValue {
    /// The array's objects' `key` strings.
    func strings(_ key: String) -> [String] {
        (arrayValue ?? []).compactMap { $0[key]?.stringValue }
    }
}
