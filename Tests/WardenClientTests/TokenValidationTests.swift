import Foundation
import Testing
import WardenClient
import WardenCore
import WardenWire

/// ID-token and access-token validation (OpenID Connect Core §3.1.3.7, RFC 9068 §4) against the live server's
/// JWKS: each failed check is its own error, and a key rotation is picked up with one refetch.
@Suite("WardenClient: token validation")
struct TokenValidationTests {
    /// `token` with its payload's `claim` replaced, the signature kept.
    static func tampered(_ token: String, _ claim: String, _ value: JSONValue) throws -> String {
        let parts = token.split(separator: ".").map(String.init)
        var payload = try JSONDecoder().decode([String: JSONValue].self, from: try #require(Base64URL.decode(parts[1])))
        payload[claim] = value
        return [parts[0], Base64URL.encode(try JSONEncoder().encode(payload)), parts[2]].joined(separator: ".")
    }

    static func expectInvalid(
        _ detail: String, sourceLocation: SourceLocation = #_sourceLocation, _ body: () async throws -> Void
    ) async {
        let error = await #expect(throws: WardenClientError.self, sourceLocation: sourceLocation) { try await body() }
        #expect(error?.error == "invalid_id_token", sourceLocation: sourceLocation)
        #expect(error?.status == nil, sourceLocation: sourceLocation)
        #expect(
            error?.errorDescription?.hasPrefix(detail) == true, "\(String(describing: error))",
            sourceLocation: sourceLocation)
    }

    @Test(arguments: LiveWarden.engines)
    func eachFailedCheckIsItsOwnError(engine: Engine) async throws {
        try await LiveWarden.with(engine: engine) { live in
            let sdk = try await LiveClient.discover(live)
            let (request, tokens) = try await sdk.logIn()
            let idToken = try #require(tokens.idToken)
            _ = try await sdk.client.validateIDToken(idToken, nonce: request.nonce, maxAge: .seconds(3600))

            await Self.expectInvalid("nonce does not match") {
                _ = try await sdk.client.validateIDToken(idToken, nonce: "another-nonce")
            }
            let otherAudience = sdk.reconfigured { $0.clientID = "another-client" }
            await Self.expectInvalid("aud ") { _ = try await otherAudience.validateIDToken(idToken) }
            await Self.expectInvalid("the signature does not verify") {
                _ = try await sdk.client.validateIDToken(try Self.tampered(idToken, "sub", "auth0|mallory"))
            }
            await Self.expectInvalid("the signature does not verify") {
                _ = try await sdk.client.validateIDToken(
                    String(idToken.dropLast(2)) + (idToken.hasSuffix("AA") ? "BA" : "AA"))
            }
            await Self.expectInvalid("not a JWS") { _ = try await sdk.client.validateIDToken("a.b") }
            try await Task.sleep(for: .seconds(1.2))
            let strict = sdk.reconfigured { $0.leeway = .zero }
            await Self.expectInvalid("auth_time is older than max_age") {
                _ = try await strict.validateIDToken(idToken, maxAge: .seconds(1))
            }
            let elsewhere = sdk.reconfigured { $0.metadata.issuer = URL(string: "https://id.example.com/")! }
            await Self.expectInvalid("iss ") { _ = try await elsewhere.validateIDToken(idToken) }
        }
    }

    @Test(arguments: LiveWarden.engines)
    func anExpiredIDTokenIsRefusedBeyondTheLeeway(engine: Engine) async throws {
        try await LiveWarden.with(engine: engine) { live in
            let shortLived = try await live.makeNativeClient(lifetime: 1)
            let sdk = try await LiveClient.discover(live, clientID: shortLived)
            let (_, tokens) = try await sdk.logIn(scope: ["openid"])
            let idToken = try #require(tokens.idToken)
            try await Task.sleep(for: .seconds(2.2))
            _ = try await sdk.client.validateIDToken(idToken)  // within the default 60 s leeway
            let strict = sdk.reconfigured { $0.leeway = .zero }
            await Self.expectInvalid("the token has expired") { _ = try await strict.validateIDToken(idToken) }
        }
    }

    @Test(arguments: LiveWarden.engines)
    func es256IDTokensValidate(engine: Engine) async throws {
        try await LiveWarden.with(engine: engine) { live in
            let sdk = try await LiveClient.discover(live, clientID: try await live.makeNativeClient(alg: .es256))
            let (request, tokens) = try await sdk.logIn(scope: ["openid"])
            let idToken = try #require(tokens.idToken)
            let header = try JSONDecoder().decode(
                JSONValue.self, from: try #require(Base64URL.decode(String(idToken.split(separator: ".")[0]))))
            #expect(header["alg"] == "ES256")
            let claims = try await sdk.client.validateIDToken(idToken, nonce: request.nonce)
            #expect(claims.subject == live.userID)
        }
    }

    /// The signing key rotates through the Management API between two logins: the validator meets a new `kid`,
    /// fetches the JWKS once more, and accepts tokens of both keys; an unknown `kid` costs one fetch and fails.
    @Test(arguments: LiveWarden.engines)
    func aKeyRotationIsPickedUpWithOneRefetch(engine: Engine) async throws {
        try await LiveWarden.with(engine: engine) { live in
            let sdk = try await LiveClient.discover(live)
            let first = try #require(try await sdk.logIn(scope: ["openid"]).tokens.idToken)
            #expect(sdk.transport.jwksFetches == 1)
            let rotated = try await live.management("POST", "keys/signing/rotate", transport: sdk.transport)
            #expect(rotated.status == 201)
            let second = try #require(try await sdk.logIn(scope: ["openid"]).tokens.idToken)
            #expect(second.split(separator: ".")[0] != first.split(separator: ".")[0])
            #expect(sdk.transport.jwksFetches == 2)
            _ = try await sdk.client.validateIDToken(first)
            _ = try await sdk.client.validateIDToken(second)
            #expect(sdk.transport.jwksFetches == 2)
            #expect(await sdk.client.jwksFetchCount == 2)

            let header = Base64URL.encode(Data(#"{"alg":"RS256","kid":"no-such-key","typ":"JWT"}"#.utf8))
            let parts = second.split(separator: ".")
            await Self.expectInvalid("no key with kid no-such-key") {
                _ = try await sdk.client.validateIDToken(
                    [header, String(parts[1]), String(parts[2])].joined(separator: "."))
            }
            #expect(sdk.transport.jwksFetches == 3)
        }
    }

    @Test(arguments: LiveWarden.engines)
    func accessTokensAreCheckedForTheirAPI(engine: Engine) async throws {
        try await LiveWarden.with(engine: engine) { live in
            let sdk = try await LiveClient.discover(live)
            let (_, tokens) = try await sdk.logIn(scope: ["openid"])
            let userinfo = live.issuer.absoluteString + "userinfo"
            let claims = try await sdk.client.validateAccessToken(tokens.accessToken, audience: userinfo)
            #expect(claims.subject == live.userID)
            #expect(claims.clientID == live.nativeClientID)
            #expect(claims.authorizationDetails.isEmpty)
            let wrongAPI = await #expect(throws: WardenClientError.self) {
                _ = try await sdk.client.validateAccessToken(tokens.accessToken, audience: live.apiIdentifier)
            }
            #expect(wrongAPI?.error == "invalid_token")
            #expect(wrongAPI?.errorDescription?.hasPrefix("aud ") == true)
            let idToken = await #expect(throws: WardenClientError.self) {
                _ = try await sdk.client.validateAccessToken(try #require(tokens.idToken), audience: userinfo)
            }
            #expect(idToken?.errorDescription == "typ is not at+jwt")
        }
    }
}
