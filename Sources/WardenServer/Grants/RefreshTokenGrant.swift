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
        let record = try await redeem(try request.require("refresh_token"), request: request)
        let scope = try narrowedScope(request.parameters["scope"], granted: record.scope)
        let grant = try await userGrant(record, client: client, scope: scope, idToken: scope.contains("openid"))
        let response = try await issuer.userTokens(
            grant, refreshToken: Self.rotates(client) ? .rotated(scope: record.scope) : .never)
        issuer.count(.refreshToken)
        issuer.log(
            .refreshExchangeSucceeded, request: request, clientID: client.clientID, audience: record.audience,
            scope: scope.joined(separator: " "), userID: record.userID)
        return response
    }

    /// Whether `client` rotates its refresh tokens (SPEC §3 `rotation_type`).
    static func rotates(_ client: Client) -> Bool {
        client.refreshToken.rotationType == "rotating"
    }

    /// Redeems `token` for the request's client: its own live token, marked used when the client rotates.
    /// Reusing a rotated token revokes its family (with the sessions made from it, SPEC §8) and logs `ferrt`;
    /// every refusal is `invalid_grant`. Shared with ``SessionTransferGrant``.
    func redeem(_ token: String, request: TokenRequest) async throws -> RefreshTokenRecord {
        let client = request.client.client
        let hash = SecretHash.sha256Hex(token)
        let rotating = Self.rotates(client)
        // A rotating use changes the token, so ownership is checked first: another client can neither spend
        // nor (by reuse) revoke this client's token. A non-rotating use changes nothing: checked on its result.
        if rotating {
            guard let stored = try await runtime.store.refreshToken(hash: hash), stored.clientID == client.clientID
            else { throw OAuthError(.invalidGrant, "Unknown or invalid refresh token") }
        }
        let now = runtime.clock.now()
        switch try await runtime.store.useRefreshToken(hash: hash, rotating: rotating, now: now) {
        case .valid(let valid) where valid.clientID == client.clientID:
            return valid
        case .reused(let reused) where reused.clientID == client.clientID:
            _ = try await RefreshTokenFamilyRevocation(runtime: runtime).revoke(
                family: reused.familyID, of: reused.clientID, at: now)
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
    }

    /// What a redeemed token stands for, issued now with `scope`: `invalid_grant` when the user was deleted or
    /// blocked since. `auth_time` is the session's when there still is one, else when the token was made; the
    /// session is read only when an ID token is to carry it.
    func userGrant(
        _ record: RefreshTokenRecord, client: Client, scope: [String], idToken: Bool
    ) async throws -> TokenIssuer.UserGrant {
        let user = try await issuer.activeUser(id: record.userID)
        var authTime = record.createdAt
        if idToken, let sessionID = record.sessionID, let session = try await runtime.store.session(id: sessionID) {
            authTime = session.authTime
        }
        return TokenIssuer.UserGrant(
            client: client, user: user, scope: scope, audience: record.audience,
            authorizationDetails: record.authorizationDetails, sessionID: record.sessionID, authTime: authTime,
            nonce: nil, familyID: record.familyID)
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
