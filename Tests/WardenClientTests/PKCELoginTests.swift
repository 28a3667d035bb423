import Foundation
import Testing
import WardenClient
import WardenWire

/// Discovery and the authorization code flow with PKCE (RFC 6749 §4.1, RFC 7636, SPEC §2 and §5) against a live
/// server: the hosted login form driven over HTTP, the callback parsed, the code exchanged, the ID token checked.
@Suite("WardenClient: discovery and PKCE login")
struct PKCELoginTests {
    @Test(arguments: LiveWarden.engines)
    func loginWithPKCEReturnsValidatedTokens(engine: Engine) async throws {
        try await LiveWarden.with(engine: engine) { live in
            let sdk = try await LiveClient.discover(live)
            let metadata = sdk.client.configuration.metadata
            #expect(metadata.issuer == live.issuer)
            #expect(metadata.tokenEndpoint.absoluteString == live.issuer.absoluteString + "oauth/token")
            #expect(metadata.codeChallengeMethodsSupported == ["S256"])

            let (request, tokens) = try await sdk.logIn()
            let query = try #require(URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems)
            let sent = Dictionary(uniqueKeysWithValues: query.map { ($0.name, $0.value ?? "") })
            #expect(sent["code_challenge_method"] == "S256")
            #expect(sent["code_challenge"]?.count == 43)
            #expect(sent["state"] == request.state)
            #expect(sent["nonce"] == request.nonce)
            #expect(request.codeVerifier.count == 43)
            #expect(tokens.tokenType == "Bearer")
            #expect(tokens.refreshToken != nil)
            let claims = try await sdk.client.validateIDToken(try #require(tokens.idToken), nonce: request.nonce)
            #expect(claims.subject == live.userID)
            #expect(claims.nonce == request.nonce)
            #expect(claims.audience == [live.nativeClientID])
            #expect(claims.all["email"]?.stringValue == live.email)
            #expect(claims.authTime != nil)
        }
    }

    @Test(arguments: LiveWarden.engines)
    func aCodeIsRedeemedOnceAndTheVerifierMustMatch(engine: Engine) async throws {
        try await LiveWarden.with(engine: engine) { live in
            let sdk = try await LiveClient.discover(live)
            let request = sdk.client.authorizationRequest(redirectURI: LiveWarden.callback, scope: ["openid"])
            var browser = Browser(transport: sdk.transport, origin: live.issuer)
            let code = try sdk.client.authorizationCode(
                from: try await browser.logIn(at: request.url, email: live.email), for: request)
            let other = sdk.client.authorizationRequest(redirectURI: LiveWarden.callback, scope: ["openid"])
            let wrongVerifier = await #expect(throws: WardenClientError.self) {
                _ = try await sdk.client.exchangeCode(code, for: other)
            }
            #expect(wrongVerifier == WardenClientError(error: "invalid_grant", status: 400))
            // The failed attempt used the code up: the right verifier comes too late (SPEC §5, single use).
            let replay = await #expect(throws: WardenClientError.self) {
                _ = try await sdk.client.exchangeCode(code, for: request)
            }
            #expect(replay == WardenClientError(error: "invalid_grant", status: 400))
        }
    }

    @Test func theCallbackMustCarryTheRequestsState() throws {
        let client = Self.offlineClient()
        let request = client.authorizationRequest(redirectURI: LiveWarden.callback, scope: ["openid"])
        let good = URL(string: "\(LiveWarden.callback)?code=abc&state=\(request.state)")!
        #expect(try client.authorizationCode(from: good, for: request) == "abc")

        let forged = URL(string: "\(LiveWarden.callback)?code=abc&state=forged")!
        #expect(throws: WardenClientError(error: "state_mismatch")) {
            try client.authorizationCode(from: forged, for: request)
        }
        let missing = URL(string: "\(LiveWarden.callback)?code=abc")!
        #expect(throws: WardenClientError(error: "state_mismatch")) {
            try client.authorizationCode(from: missing, for: request)
        }
        let elsewhere = URL(string: "https://evil.example.com/callback?code=abc&state=\(request.state)")!
        #expect(throws: WardenClientError(error: "invalid_callback")) {
            try client.authorizationCode(from: elsewhere, for: request)
        }
        let noCode = URL(string: "\(LiveWarden.callback)?state=\(request.state)")!
        #expect(throws: WardenClientError(error: "invalid_callback")) {
            try client.authorizationCode(from: noCode, for: request)
        }
        let denied = URL(
            string: "\(LiveWarden.callback)?error=access_denied&error_description=No%20thanks&state=\(request.state)")!
        let error = #expect(throws: WardenClientError.self) { try client.authorizationCode(from: denied, for: request) }
        #expect(error == WardenClientError(error: "access_denied"))
        #expect(error?.errorDescription == "No thanks")
    }

    @Test func eachRequestHasFreshSecretsAndKeepsItsOwnParameters() throws {
        let client = Self.offlineClient()
        let first = client.authorizationRequest(
            redirectURI: LiveWarden.callback, scope: ["openid"], audience: "https://api.example.com",
            additionalParameters: ["prompt": "login", "state": "attacker"])
        let second = client.authorizationRequest(redirectURI: LiveWarden.callback, scope: ["openid"])
        #expect(first.state != second.state)
        #expect(first.nonce != second.nonce)
        #expect(first.codeVerifier != second.codeVerifier)
        let items = URLComponents(url: first.url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        #expect(items.filter { $0.name == "state" }.map(\.value) == [first.state])
        #expect(items.first { $0.name == "prompt" }?.value == "login")
        #expect(items.first { $0.name == "audience" }?.value == "https://api.example.com")
    }

    @Test(arguments: LiveWarden.engines)
    func discoveryRefusesAnotherIssuer(engine: Engine) async throws {
        try await LiveWarden.with(engine: engine) { live in
            let transport = RecordingTransport(live: live)
            let localhost = URL(
                string: live.issuer.absoluteString.replacingOccurrences(of: "127.0.0.1", with: "localhost"))!
            let error = await #expect(throws: WardenClientError.self) {
                _ = try await WardenClient.discover(issuer: localhost, clientID: "x", transport: transport)
            }
            #expect(error?.error == "invalid_response")
        }
    }

    /// A client for checks that need no server.
    static func offlineClient() -> WardenClient {
        let issuer = URL(string: "https://id.example.com/")!
        return WardenClient(
            configuration: .init(
                issuer: issuer, clientID: "app",
                metadata: ProviderMetadata(
                    issuer: issuer, authorizationEndpoint: issuer.appendingPathComponent("authorize"),
                    tokenEndpoint: issuer.appendingPathComponent("oauth/token"),
                    jwksURI: issuer.appendingPathComponent(".well-known/jwks.json"))))
    }
}
