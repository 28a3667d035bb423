import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing
import WardenCore
import WardenTesting
import WardenWire

@testable import WardenServer

/// A tenant for Native-to-Web SSO (SPEC §8): a public native client allowed to create session transfer tokens
/// (device binding `none` by default: in-process requests have no client IP), holding refresh tokens of a user,
/// and a public web client that accepts the tokens by cookie and by query.
struct SessionTransferFixture {
    /// The two request forms of the exchange.
    enum Form: String, CaseIterable, Sendable, CustomTestStringConvertible {
        /// The reference SDK's: `grant_type=refresh_token` with the session transfer audience.
        case sdk
        /// RFC 8693's token exchange.
        case tokenExchange

        var testDescription: String { rawValue }
    }

    /// The exchange's `audience` for the default issuer `http://127.0.0.1:8080/` (SPEC §8: host without port).
    static let audience = "urn:127.0.0.1:session_transfer"

    let native: CodeFlowFixture
    let web: FrontChannelFixture
    var warden: TestWarden { native.warden }

    static func make(
        rotating: Bool = false, warden: TestWarden? = nil,
        native configureNative: (inout Client) -> Void = { _ in },
        web configureWeb: (inout Client) -> Void = { _ in }
    ) async throws -> SessionTransferFixture {
        let native = try await CodeFlowFixture.make(
            public: true, grantTypes: [.authorizationCode, .refreshToken, .tokenExchange], warden: warden
        ) {
            $0.appType = .native
            $0.refreshToken.rotationType = rotating ? .rotating : .nonRotating
            var settings = SessionTransferConfiguration()
            settings.canCreateSessionTransferToken = true
            settings.enforceDeviceBinding = .none
            $0.sessionTransfer = settings
            configureNative(&$0)
        }
        let web = try await native.warden.makeClient(grantTypes: [.authorizationCode, .refreshToken]) {
            $0.appType = .regularWeb
            $0.tokenEndpointAuthMethod = TokenEndpointAuthMethod.none
            $0.callbacks = [FrontChannelFixture.callback]
            var settings = SessionTransferConfiguration()
            settings.allowedAuthenticationMethods = ["cookie", "query"]
            $0.sessionTransfer = settings
            configureWeb(&$0)
        }
        return SessionTransferFixture(
            native: native,
            web: FrontChannelFixture(
                warden: native.warden, clientID: web.id, email: native.user.email ?? "", userID: native.user.userID))
    }

    /// A new refresh token of the native client (a code exchange with `offline_access`), in a family of its own.
    func refreshToken(http: some TestClientProtocol) async throws -> String {
        try #require(
            try await native.tokens(scope: RefreshTokenGrantTests.offline, http: http)["refresh_token"]?.stringValue)
    }

    /// The family of a refresh token.
    func family(of refreshToken: String) async throws -> String {
        try #require(try await warden.runtime.store.refreshToken(hash: SecretHash.sha256Hex(refreshToken))).familyID
    }

    /// Asks `/oauth/token` for a session transfer token in `form`; `changes` replaces (or with `nil` removes)
    /// parameters.
    func exchange(
        _ refreshToken: String, form: Form = .sdk, http: some TestClientProtocol, headers: HTTPFields = [:],
        changes: [String: String?] = [:]
    ) async throws -> TestResponse {
        var fields: [String: String?] =
            switch form {
            case .sdk:
                ["grant_type": GrantType.refreshToken.rawValue, "refresh_token": refreshToken]
            case .tokenExchange:
                [
                    "grant_type": GrantType.tokenExchange.rawValue,
                    "subject_token_type": SessionTransferGrant.refreshTokenType, "subject_token": refreshToken,
                ]
            }
        fields["client_id"] = native.client.id
        fields["audience"] = Self.audience
        fields.merge(changes) { $1 }
        let form = fields.compactMap { name, value in value.map { (name, $0) } }.sorted { $0.0 < $1.0 }
        return try await http.postForm("/oauth/token", form, headers: headers)
    }

    /// A session transfer token for a new refresh token.
    func sessionTransferToken(
        http: some TestClientProtocol, headers: HTTPFields = [:], sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> String {
        let response = try await exchange(try await refreshToken(http: http), http: http, headers: headers)
        #expect(response.status == .ok, "\(response.json)", sourceLocation: sourceLocation)
        return try #require(response.json["access_token"]?.stringValue, sourceLocation: sourceLocation)
    }

    /// The web client's `GET /authorize` presenting `query` as `session_transfer_token` and/or `cookie` as the
    /// `auth0_session_transfer_token` cookie.
    func authorize(
        http: some TestClientProtocol, query: String? = nil, cookie: String? = nil,
        changes: [String: String?] = [:], headers: HTTPFields = [:]
    ) async throws -> TestResponse {
        var changes = changes
        if let query { changes[SessionTransferConsumer.queryParameter] = query }
        var headers = headers
        if let cookie { headers[.cookie] = "\(SessionTransferConsumer.cookieName)=\(cookie)" }
        return try await http.execute(uri: web.authorizeURI(changes), method: .get, headers: headers, body: nil)
    }

    /// The SSO session whose cookie `response` sets.
    func session(setBy response: TestResponse) async throws -> Session? {
        let prefix = Browser.sessionCookie + "="
        guard let line = response.headers[values: .setCookie].first(where: { $0.hasPrefix(prefix) }) else { return nil }
        let secret = String(line.dropFirst(prefix.count).prefix { $0 != ";" })
        return try await warden.runtime.store.session(secretHash: SecretHash.sha256Hex(secret))
    }

    /// Exchanges the web client's `code` (from ``authorize(http:query:cookie:changes:headers:)``).
    func redeemWebCode(_ code: String, http: some TestClientProtocol) async throws -> TestResponse {
        try await http.postForm(
            "/oauth/token",
            [
                ("grant_type", "authorization_code"), ("client_id", web.clientID), ("code", code),
                ("redirect_uri", FrontChannelFixture.callback), ("code_verifier", FrontChannelFixture.verifier),
            ])
    }
}

extension TestResponse {
    /// A redirect to the web client's callback with a code: the token was accepted.
    var isCodeRedirect: Bool {
        status == .found && headers[.location]?.hasPrefix(FrontChannelFixture.callback) == true
            && redirectParameters["code"] != nil
    }

    /// A redirect to the hosted login form: no token, or one ignored.
    var isLoginRedirect: Bool {
        status == .found && headers[.location]?.hasPrefix("/u/login?state=") == true
    }
}
