import Crypto
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing
import WardenCore
import WardenTesting
import WardenWire

@testable import WardenServer

/// Dynamic client registration (RFC 7591, SPEC §13): the modes, the metadata rules and their errors, the rate
/// limit, the logs, and what a registered client may never do.
@Suite("registration: POST /oidc/register")
struct ClientRegistrationTests {
    static func warden(_ mode: WardenConfiguration.RegistrationMode = .open) async throws -> TestWarden {
        try await TestWarden.make { $0.registration = mode }
    }

    static func register(
        _ http: some TestClientProtocol, _ metadata: JSONValue, headers: HTTPFields = [:]
    ) async throws -> TestResponse {
        try await http.postJSON("/oidc/register", metadata.serialized, headers: headers)
    }

    static let minimal: JSONValue = ["client_name": "Agent", "redirect_uris": ["http://127.0.0.1:33418/callback"]]

    @Test func offHasNoEndpointAndDiscoveryDoesNotNameOne() async throws {
        let warden = try await Self.warden(.off)
        try await warden.test { http in
            let response = try await Self.register(http, Self.minimal)
            #expect(response.status == .notFound)
            let discovery = try await http.execute(uri: "/.well-known/openid-configuration", method: .get)
            #expect(discovery.json["registration_endpoint"] == nil)
        }
    }

    @Test func openRegistersAThirdPartyPublicClientTheManagementAPIShows() async throws {
        let warden = try await Self.warden()
        try await warden.test { http in
            let discovery = try await http.execute(uri: "/.well-known/oauth-authorization-server", method: .get)
            #expect(discovery.json["registration_endpoint"] == "http://127.0.0.1:8080/oidc/register")
            let response = try await Self.register(
                http,
                [
                    "client_name": "Agent", "redirect_uris": ["http://127.0.0.1:33418/callback"],
                    "grant_types": ["authorization_code", "refresh_token"], "client_uri": "https://agent.example.com/",
                    "application_type": "native", "contacts": ["ops@example.com"],
                ])
            #expect(response.status == .created, "\(response.json)")
            #expect(response.headers[.cacheControl] == "no-store")
            let body = response.json
            let id = try #require(body["client_id"]?.stringValue)
            #expect(body["client_secret"] == nil)
            #expect(body["token_endpoint_auth_method"] == "none")
            #expect(body["grant_types"] == ["authorization_code", "refresh_token"])
            #expect(body["response_types"] == ["code"])
            #expect(body["client_uri"] == "https://agent.example.com/")
            #expect(body["application_type"] == nil)
            #expect(body["client_id_issued_at"] == .number(Double(Int(warden.clock.now().timeIntervalSince1970))))
            let management = try await ManagementSession.make(warden, http)
            let client = try await management.expect(.ok, .get, "clients/\(id)")
            #expect(client["is_first_party"] == false)
            #expect(client["callbacks"] == ["http://127.0.0.1:33418/callback"])
            #expect(client["registration"]?["method"] == "dynamic")
            #expect(client["registration"]?["client_uri"] == "https://agent.example.com/")
        }
    }

    @Test func aConfidentialClientGetsItsSecretOnceAndItNeverExpires() async throws {
        let warden = try await Self.warden()
        try await warden.test { http in
            let response = try await Self.register(
                http,
                [
                    "redirect_uris": ["https://app.example.com/cb"],
                    "token_endpoint_auth_method": "client_secret_basic",
                ])
            #expect(response.status == .created)
            #expect(response.json["client_secret"]?.stringValue?.count ?? 0 >= 32)
            #expect(response.json["client_secret_expires_at"] == 0)
            // Without client_name or client_uri, the client is named by its id.
            #expect(response.json["client_name"] == response.json["client_id"])
        }
    }

    @Test(arguments: [
        "https://app.example.com/callback", "http://127.0.0.1:5000/cb", "http://[::1]:1/cb", "http://localhost/cb",
        "com.example.app:/oauth2redirect",
    ])
    func aRedirectURIWithinTheRulesIsAccepted(uri: String) async throws {
        let warden = try await Self.warden()
        try await warden.test { http in
            let response = try await Self.register(http, ["redirect_uris": [.string(uri)]])
            #expect(response.status == .created, "\(uri): \(response.json)")
            #expect(response.json["redirect_uris"] == [.string(uri)])
        }
    }

    @Test(arguments: [
        "http://app.example.com/cb", "https://app.example.com/cb#fragment", "javascript:alert(1)", "myapp://cb",
        "/relative/callback", "https:///no-host", "data:text/html,hi",
    ])
    func aRedirectURIOutsideTheRulesIsInvalidRedirectURI(uri: String) async throws {
        let warden = try await Self.warden()
        try await warden.test { http in
            let response = try await Self.register(http, ["redirect_uris": [.string(uri)]])
            expectError(response, status: .badRequest, code: "invalid_redirect_uri")
        }
    }

    @Test func missingOrEmptyRedirectURIsAreInvalidRedirectURI() async throws {
        let warden = try await Self.warden()
        try await warden.test { http in
            for metadata: JSONValue in [["client_name": "x"], ["redirect_uris": []], ["redirect_uris": "https://a/cb"]]
            {
                expectError(
                    try await Self.register(http, metadata), status: .badRequest, code: "invalid_redirect_uri")
            }
        }
    }

    @Test(arguments: [
        #"{"redirect_uris":["https://a.example/cb"],"grant_types":["client_credentials"]}"#,
        #"{"redirect_uris":["https://a.example/cb"],"grant_types":["urn:openid:params:grant-type:ciba"]}"#,
        #"{"redirect_uris":["https://a.example/cb"],"grant_types":["refresh_token"]}"#,
        #"{"redirect_uris":["https://a.example/cb"],"response_types":["token"]}"#,
        #"{"redirect_uris":["https://a.example/cb"],"token_endpoint_auth_method":"tls_client_auth"}"#,
        #"{"redirect_uris":["https://a.example/cb"],"token_endpoint_auth_method":"private_key_jwt"}"#,
        #"{"redirect_uris":["https://a.example/cb"],"jwks":{"keys":[]}}"#,
        #"{"redirect_uris":["https://a.example/cb"],"client_uri":"javascript:alert(1)"}"#,
        #"{"redirect_uris":["https://a.example/cb"],"client_name":"\u0007bell"}"#,
        #"{"redirect_uris":["https://a.example/cb"],"scope":"read\"quote"}"#,
        #"["https://a.example/cb"]"#,
        #"{"redirect_uris":"#,
    ])
    func invalidMetadataIsInvalidClientMetadata(body: String) async throws {
        let warden = try await Self.warden()
        try await warden.test { http in
            let response = try await http.postJSON("/oidc/register", body)
            expectError(response, status: .badRequest, code: "invalid_client_metadata")
        }
    }

    @Test func aLongNameIsRefusedAndNothingIsStored() async throws {
        let warden = try await Self.warden()
        try await warden.test { http in
            let before = try await warden.runtime.store.clients(page: nil).items.count
            let name = String(repeating: "n", count: 201)
            let response = try await Self.register(
                http, ["client_name": .string(name), "redirect_uris": ["https://a.example/cb"]])
            expectError(response, status: .badRequest, code: "invalid_client_metadata")
            #expect(try await warden.runtime.store.clients(page: nil).items.count == before)
        }
    }

    @Test func theBodyMustBeJSONAndAtMost64KiB() async throws {
        let warden = try await Self.warden()
        try await warden.test { http in
            let form = try await http.postForm("/oidc/register", [("redirect_uris", "https://a.example/cb")])
            expectError(form, status: .badRequest, code: "invalid_client_metadata")
            let padding = String(repeating: "x", count: 65 * 1024)
            let large = try await Self.register(
                http, ["redirect_uris": ["https://a.example/cb"], "software_id": .string(padding)])
            expectError(large, status: .contentTooLarge, code: "invalid_request")
        }
    }

    @Test func privateKeyJWTTakesPublicRSAAndP256KeysOnly() async throws {
        let warden = try await Self.warden()
        let key = P256Key.make()
        try await warden.test { http in
            let accepted = try await Self.register(
                http,
                [
                    "redirect_uris": ["https://a.example/cb"], "token_endpoint_auth_method": "private_key_jwt",
                    "jwks": ["keys": [key.publicJWK]],
                ])
            #expect(accepted.status == .created, "\(accepted.json)")
            #expect(accepted.json["client_secret"] == nil)
            let id = try #require(accepted.json["client_id"]?.stringValue)
            let stored = try #require(try await warden.runtime.store.client(id: id))
            #expect(stored.client.clientAuthenticationMethods?.privateKeyJWT?.credentials.count == 1)
            #expect(stored.secretHash == nil)
            for jwk in [key.privateJWK, ["kty": "oct", "k": "c2VjcmV0"]] as [JSONValue] {
                let refused = try await Self.register(
                    http,
                    [
                        "redirect_uris": ["https://a.example/cb"], "token_endpoint_auth_method": "private_key_jwt",
                        "jwks": ["keys": [jwk]],
                    ])
                expectError(refused, status: .badRequest, code: "invalid_client_metadata")
            }
        }
    }

    @Test func tokenModeNeedsAManagementTokenWithCreateClients() async throws {
        let warden = try await Self.warden(.token)
        try await warden.test { http in
            let anonymous = try await Self.register(http, Self.minimal)
            expectError(anonymous, status: .unauthorized, code: "invalid_token")
            #expect(anonymous.headers[.wwwAuthenticate] == #"Bearer error="invalid_token""#)
            let garbage = try await Self.register(http, Self.minimal, headers: [.authorization: "Bearer not.a.jwt"])
            expectError(garbage, status: .unauthorized, code: "invalid_token")
            let management = try await ManagementSession.make(warden, http)
            let reader = try await management.restricted(to: ["read:clients"])
            let lacking = try await Self.register(
                http, Self.minimal, headers: [.authorization: "Bearer \(reader.token)"])
            expectError(lacking, status: .forbidden, code: "insufficient_scope")
            let allowed = try await Self.register(
                http, Self.minimal, headers: [.authorization: "Bearer \(management.token)"])
            #expect(allowed.status == .created)
        }
    }

    @Test func twentyRequestsAMinuteFromOneAddressThen429() async throws {
        let warden = try await Self.warden()
        try await warden.test { http in
            for _ in 0..<20 {
                #expect(try await Self.register(http, Self.minimal).status == .created)
            }
            let limited = try await Self.register(http, Self.minimal)
            expectError(limited, status: .tooManyRequests, code: "too_many_requests")
            let retryAfter = try #require(limited.headers[.retryAfter].flatMap(Int.init))
            #expect((1...60).contains(retryAfter))
            warden.clock.advance(by: 60)
            #expect(try await Self.register(http, Self.minimal).status == .created)
        }
    }

    @Test func registrationsAndRefusalsAreLogged() async throws {
        let warden = try await Self.warden()
        try await warden.test { http in
            let created = try await Self.register(http, Self.minimal)
            _ = try await Self.register(http, ["redirect_uris": ["http://evil.example/cb"]])
            await warden.flushLogs()
            let success = try await warden.runtime.store.searchLogs(
                LogFilter(terms: ["type": ["sdcr"]]), ascending: true, page: PageRequest(page: 0, perPage: 10)
            ).items
            #expect(success.map(\.clientID) == [created.json["client_id"]?.stringValue])
            #expect(success.first?.clientName == "Agent")
            let failure = try await warden.runtime.store.searchLogs(
                LogFilter(terms: ["type": ["fdcr"]]), ascending: true, page: PageRequest(page: 0, perPage: 10)
            ).items
            #expect(failure.first?.details["error"] == "invalid_redirect_uri")
        }
    }

    @Test func aRegistrationUnusedFor30DaysIsDeletedAndATokenKeepsIt() async throws {
        let warden = try await Self.warden()
        try await warden.test { http in
            let kept = try #require(
                try await Self.register(http, ["redirect_uris": [.string(CodeFlowFixture.redirectURI)]])
                    .json["client_id"]?.stringValue)
            let unused = try #require(try await Self.register(http, Self.minimal).json["client_id"]?.stringValue)
            let registeredAt = warden.clock.now()
            let expiry = try #require(try await warden.runtime.store.client(id: unused)?.expiresAt)
            #expect(abs(expiry.timeIntervalSince(registeredAt) - 30 * 86400) < 1)

            warden.clock.advance(by: 20 * 86400)
            let fixture = try await CodeFlowFixture.make(public: true, warden: warden)
            let code = try await fixture.code(clientID: kept)
            let token = try await http.postForm(
                "/oauth/token",
                [
                    ("grant_type", "authorization_code"), ("client_id", kept), ("code", code),
                    ("redirect_uri", CodeFlowFixture.redirectURI), ("code_verifier", CodeFlowFixture.verifier),
                ])
            #expect(token.status == .ok, "\(token.json)")

            warden.clock.advance(by: 11 * 86400)
            await HousekeepingService(runtime: warden.runtime).sweep()
            #expect(try await warden.runtime.store.client(id: unused) == nil)
            #expect(try await warden.runtime.store.client(id: kept) != nil, "its token 11 days ago keeps it")
            let management = try await ManagementSession.make(warden, http)
            _ = try await management.expectError(404, "inexistent_client", .get, "clients/\(unused)")
        }
    }

    @Test func aRegisteredClientNeverGetsClientCredentialsOrCIBAEvenWhenAnOperatorAddsThem() async throws {
        let warden = try await Self.warden()
        try await warden.test { http in
            let registered = try await Self.register(
                http, ["redirect_uris": ["https://a.example/cb"], "token_endpoint_auth_method": "client_secret_post"])
            let id = try #require(registered.json["client_id"]?.stringValue)
            let secret = try #require(registered.json["client_secret"]?.stringValue)
            let management = try await ManagementSession.make(warden, http)
            try await management.expect(
                .ok, .patch, "clients/\(id)",
                json: [
                    "grant_types": [
                        "authorization_code", "client_credentials", "urn:openid:params:grant-type:ciba",
                    ]
                ])
            let api = try await warden.makeAPI()
            try await warden.grant(clientID: id, audience: api.identifier, scope: ["read:things"])
            let token = try await http.postForm(
                "/oauth/token",
                [
                    ("grant_type", "client_credentials"), ("client_id", id), ("client_secret", secret),
                    ("audience", api.identifier),
                ])
            expectError(token, status: .badRequest, code: "unauthorized_client")
            let ciba = try await http.postForm(
                "/bc-authorize",
                [
                    ("client_id", id), ("client_secret", secret), ("scope", "openid"),
                    ("login_hint", #"{"format":"iss_sub","iss":"http://127.0.0.1:8080/","sub":"auth0|x"}"#),
                    ("binding_message", "Hello"),
                ])
            expectError(ciba, status: .badRequest, code: "unauthorized_client")
        }
    }
}

/// A P-256 key as JWKs (RFC 7518 §6.2): the public one a client registers, and the private one it must not.
struct P256Key {
    let key: P256.Signing.PrivateKey

    static func make() -> P256Key { P256Key(key: P256.Signing.PrivateKey()) }

    var publicJWK: JSONValue {
        let raw = key.publicKey.rawRepresentation
        return [
            "kty": "EC", "crv": "P-256", "kid": "agent-key", "alg": "ES256",
            "x": .string(Base64URL.encode(raw.prefix(32))), "y": .string(Base64URL.encode(raw.suffix(32))),
        ]
    }

    var privateJWK: JSONValue {
        guard case .object(var members) = publicJWK else { return publicJWK }
        members["d"] = .string(Base64URL.encode(key.rawRepresentation))
        return .object(members)
    }
}
