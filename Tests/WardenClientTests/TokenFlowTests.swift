import Foundation
import Testing
import WardenClient
import WardenCore
import WardenWire

/// Refresh (RFC 6749 §6), session transfer (SPEC §8) and userinfo (OpenID Connect Core §5.3) through the SDK
/// against a live server.
@Suite("WardenClient: refresh, session transfer, userinfo")
struct TokenFlowTests {
    @Test(arguments: LiveWarden.engines)
    func refreshIssuesNewTokensAndNarrowsButNeverWidens(engine: Engine) async throws {
        try await LiveWarden.with(engine: engine) { live in
            let sdk = try await LiveClient.discover(live)
            let (_, tokens) = try await sdk.logIn()
            let refreshToken = try #require(tokens.refreshToken)
            let refreshed = try await sdk.client.refresh(refreshToken: refreshToken)
            #expect(refreshed.accessToken != tokens.accessToken)
            #expect(refreshed.idToken != nil)
            let narrowed = try await sdk.client.refresh(refreshToken: refreshToken, scope: ["openid"])
            #expect(narrowed.scope == "openid")
            let wider = await #expect(throws: WardenClientError.self) {
                _ = try await sdk.client.refresh(refreshToken: refreshToken, scope: ["openid", "read:balance"])
            }
            #expect(wider == WardenClientError(error: "invalid_scope", status: 400))
            let unknown = await #expect(throws: WardenClientError.self) {
                _ = try await sdk.client.refresh(refreshToken: "not-a-refresh-token")
            }
            #expect(unknown == WardenClientError(error: "invalid_grant", status: 400))
        }
    }

    @Test(arguments: LiveWarden.engines)
    func aSessionTransferTokenOpensTheWebAppLoggedIn(engine: Engine) async throws {
        try await LiveWarden.with(engine: engine) { live in
            let sdk = try await LiveClient.discover(live)
            let (_, tokens) = try await sdk.logIn()
            let transfer = try await sdk.client.sessionTransfer(refreshToken: try #require(tokens.refreshToken))
            #expect(transfer.expiresIn == 60)
            #expect(transfer.idToken != nil)
            #expect(sdk.transport.exchanges.last?.grantType == "refresh_token")

            let web = try await LiveClient.discover(live, clientID: try await live.makeWebClient())
            let request = web.client.authorizationRequest(
                redirectURI: LiveWarden.callback, scope: ["openid"],
                additionalParameters: [SessionTransferToken.queryParameter: transfer.token])
            var browser = Browser(transport: web.transport, origin: live.issuer)
            let callback = try await browser.open(request.url)
            let code = try web.client.authorizationCode(from: callback, for: request)
            let webTokens = try await web.client.exchangeCode(code, for: request)
            let claims = try await web.client.validateIDToken(try #require(webTokens.idToken), nonce: request.nonce)
            #expect(claims.subject == live.userID)

            let reused = await #expect(throws: WardenClientError.self) {
                _ = try await sdk.client.sessionTransfer(refreshToken: "not-a-refresh-token")
            }
            #expect(reused == WardenClientError(error: "invalid_grant", status: 400))
        }
    }

    @Test(arguments: LiveWarden.engines)
    func aClientNotAllowedSessionTransferIsRefused(engine: Engine) async throws {
        try await LiveWarden.with(engine: engine, native: { $0.sessionTransfer = nil }) { live in
            let sdk = try await LiveClient.discover(live)
            let (_, tokens) = try await sdk.logIn()
            let error = await #expect(throws: WardenClientError.self) {
                _ = try await sdk.client.sessionTransfer(refreshToken: try #require(tokens.refreshToken))
            }
            #expect(error == WardenClientError(error: "unauthorized_client", status: 400))
        }
    }

    @Test(arguments: LiveWarden.engines)
    func userInfoReturnsTheUsersClaims(engine: Engine) async throws {
        try await LiveWarden.with(engine: engine) { live in
            let sdk = try await LiveClient.discover(live)
            let (_, tokens) = try await sdk.logIn()
            let info = try await sdk.client.userInfo(accessToken: tokens.accessToken)
            #expect(info["sub"]?.stringValue == live.userID)
            #expect(info["email"]?.stringValue == live.email)
            let error = await #expect(throws: WardenClientError.self) {
                _ = try await sdk.client.userInfo(accessToken: "not-a-token")
            }
            #expect(error == WardenClientError(error: "invalid_token", status: 401))
        }
    }
}
