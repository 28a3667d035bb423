import WardenCore

/// `refresh_token` (RFC 6749 §6) per SPEC §3 and §5: the token must belong to the client; `scope` may narrow
/// the grant, never widen it. A `rotating` client gets a successor in the same family on each use; presenting
/// a rotated token again revokes the whole family (`ferrt`, OAuth 2.0 Security BCP §4.14.2).
struct RefreshTokenGrant: GrantHandler {
    let runtime: WardenRuntime
    let issuer: TokenIssuer
    var grantType: GrantType { .refreshToken }
    /// Public clients refresh with `client_id` alone; confidential ones authenticate (RFC 6749 §6).
    var requiresClientAuthentication: Bool { false }
    var failureEvent: LogEventType { .refreshExchangeFailed }

    func exchange(_ request: TokenRequest) async throws -> TokenResponse {
        let client = request.client.client
        let hash = SecretHash.sha256Hex(try request.require("refresh_token"))
        let rotating = client.refreshToken.rotationType == "rotating"
        // A rotating use changes the token, so ownership is checked first: another client can neither spend
        // nor (by reuse) revoke this client's token. A non-rotating use changes nothing: checked on its result.
        if rotating {
            guard let stored = try await runtime.store.refreshToken(hash: hash), stored.clientID == client.clientID
            else { throw OAuthError(.invalidGrant, "Unknown or invalid refresh token") }
        }
        let now = runtime.clock.now()
        let record: RefreshTokenRecord
        switch try await runtime.store.useRefreshToken(hash: hash, rotating: rotating, now: now) {
        case .valid(let valid) where valid.clientID == client.clientID:
            record = valid
        case .reused(let reused) where reused.clientID == client.clientID:
            _ = try await runtime.store.revokeRefreshTokenFamily(reused.familyID, at: now)
            issuer.log(
                .refreshTokenReused, request: request, clientID: client.clientID,
                description: "A rotated refresh token was reused; its family is revoked", audience: reused.audience,
                userID: reused.userID)
            throw OAuthError(.invalidGrant, "Unknown or invalid refresh token")
        case .expired:
            throw OAuthError(.invalidGrant, "The refresh token has expired")
        case .valid, .reused, .revoked, .notFound:
            throw OAuthError(.invalidGrant, "Unknown or invalid refresh token")
        }
        let scope = try narrowedScope(request.parameters["scope"], granted: record.scope)
        let user = try await issuer.activeUser(id: record.userID)
        var authTime = record.createdAt
        // Only an ID token carries auth_time: the session is read only when one is issued.
        if scope.contains("openid"), let sessionID = record.sessionID,
            let session = try await runtime.store.session(id: sessionID)
        {
            authTime = session.authTime
        }
        let response = try await issuer.userTokens(
            .init(
                client: client, user: user, scope: scope, audience: record.audience,
                authorizationDetails: record.authorizationDetails, sessionID: record.sessionID,
                authTime: authTime, nonce: nil, familyID: record.familyID),
            refreshToken: rotating ? .rotated(scope: record.scope) : .never)
        issuer.count(.refreshToken)
        issuer.log(
            .refreshExchangeSucceeded, request: request, clientID: client.clientID, audience: record.audience,
            scope: scope.joined(separator: " "), userID: record.userID)
        return response
    }

    /// RFC 6749 §6: the requested scope must not include any scope not originally granted (`invalid_scope`);
    /// without `scope` the tokens get the original one.
    private func narrowedScope(_ requested: String?, granted: [String]) throws(OAuthError) -> [String] {
        guard let requested else { return granted }
        var scope: [String] = []
        for value in requested.split(separator: " ").map(String.init) where !scope.contains(value) {
            guard granted.contains(value) else {
                throw OAuthError(.invalidScope, "The scope \(value) was not granted to this refresh token")
            }
            scope.append(value)
        }
        return scope
    }
}
