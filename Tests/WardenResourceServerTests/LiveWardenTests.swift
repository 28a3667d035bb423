import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import Synchronization
import Testing
import WardenClient
import WardenCore
import WardenResourceServer
import WardenServer
import WardenTesting
import WardenWire

/// Tokens of a real Warden (in process): a `client_credentials` token for an API validates with its scope and
/// client, the same token is refused by another API, and a key rotation through the Management API costs one
/// JWKS refetch.
@Suite("WardenResourceServer: against an in-process Warden")
struct LiveWardenTests {
    /// Sends the SDK's requests to the in-process Warden's router.
    struct InProcessTransport: HTTPTransport {
        let client: any TestClientProtocol
        let fetches = Counter()

        final class Counter: Sendable {
            private let value = Mutex(0)
            var count: Int { value.withLock { $0 } }
            func increment() { value.withLock { $0 += 1 } }
        }

        func send(_ request: SDKRequest) async throws -> SDKResponse {
            fetches.increment()
            let response = try await client.execute(uri: request.url.path, method: .get)
            return SDKResponse(
                status: Int(response.status.code), body: Data(String(buffer: response.body).utf8))
        }
    }

    static func accessToken(
        _ client: some TestClientProtocol, _ credentials: (id: String, secret: String), audience: String
    ) async throws -> String {
        let response = try await client.postForm(
            "/oauth/token",
            [
                ("grant_type", "client_credentials"), ("client_id", credentials.id),
                ("client_secret", credentials.secret), ("audience", audience),
            ])
        return try #require(response.json["access_token"]?.stringValue, "\(response.json)")
    }

    @Test func aWardenTokenValidatesForItsAPIOnlyAndARotationCostsOneRefetch() async throws {
        let warden = try await TestWarden.make()
        let api = try await warden.makeAPI(scopes: ["read:balance", "transfer:funds"])
        let other = try await warden.makeAPI()
        let agent = try await warden.makeClient()
        try await warden.grant(clientID: agent.id, audience: api.identifier, scope: ["read:balance"])
        try await warden.test { client in
            let transport = InProcessTransport(client: client)
            let issuer = warden.runtime.configuration.issuer
            let resource = ProtectedResource(
                configuration: .init(issuer: issuer, resource: api.identifier), transport: transport)
            let first = try await Self.accessToken(client, agent, audience: api.identifier)
            let token = try await resource.validate(first)
            #expect(token.clientID == agent.id)
            #expect(token.scope == ["read:balance"])
            #expect(token.audience == [api.identifier])
            #expect(transport.fetches.count == 1)

            let elsewhere = ProtectedResource(
                configuration: .init(issuer: issuer, resource: other.identifier), transport: transport)
            await expectRefusal(.invalidToken, "aud [\"\(api.identifier)\"] does not contain") {
                _ = try await elsewhere.validate(first)
            }

            let management = try await warden.managementToken(client: client)
            let rotated = try await client.execute(
                uri: "/api/v2/keys/signing/rotate", method: .post, headers: [.authorization: "Bearer " + management])
            #expect(rotated.status == .created)
            let second = try await Self.accessToken(client, agent, audience: api.identifier)
            #expect(second.split(separator: ".")[0] != first.split(separator: ".")[0])
            _ = try await resource.validate(second)
            _ = try await resource.validate(first)
            #expect(await resource.jwksFetchCount == 2)
        }
    }
}
