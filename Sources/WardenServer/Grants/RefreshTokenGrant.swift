import WardenCore
import WardenWire

/// `refresh_token` (RFC 6749 §6) per SPEC §3 and §5: the token must belong to the client; `scope` may narrow
/// the grant, never widen it. A `rotating` client gets a successor in the same family on each use; presenting
/// a rotated token again revokes the whole family (`ferrt`, OAuth 2.0 Security BCP §4.14.2).
struct RefreshTokenGrant: GrantHandler {
    let refreshTokens: any RefreshTokenStore
    /// Revokes the family of a reused rotated token.
    let familyRevocation: RefreshTokenFamilyRevocation
    let issuer: TokenIssuer
    let clock: any WardenClock
    /// The organizations of tokens issued for an organization's login (SPEC §19).
    let organizations: any OrganizationStore
    var grantType: GrantType { .refreshToken }
    /// Public clients refresh with `client_id` alone; confidential ones authenticate (RFC 6749 §6).
    var requiresClientAuthentication: Bool { false }
    var failureEvent: LogEventType { .refreshExchangeFailed }

    /// A handler redeeming the tokens of `refreshTokens`, revoking through `familyRevocation` on reuse and
    /// issuing through `issuer`; a token of an organization's login is checked against `organizations`.
    init(
        refreshTokens: any RefreshTokenStore, familyRevocation: RefreshTokenFamilyRevocation, issuer: TokenIssuer,
        clock: any WardenClock, organizations: any OrganizationStore
    ) {
        self.organizations = organizations
        self.refreshTokens = refreshTokens
        self.familyRevocation = familyRevocation
        self.issuer = issuer
        self.clock = clock
    }

    func exchange(_ request: TokenRequest) async throws -> TokenResponse {
        let client = request.client.client
        let context = try await redeem(try request.require("refresh_token"), request: request)
        let record = context.token
        let scope = try narrowedScope(request.parameters["scope"], granted: record.scope)
        var grant = try userGrant(context, client: client, scope: scope)
        grant.organization = try await organization(of: record)
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
        client.refreshToken.rotationType == .rotating
    }

    /// Redeems `token` for the request's client: its own live token, marked used when the client rotates.
    /// Reusing a rotated token revokes its family (with the sessions made from it, SPEC §8) and logs `ferrt`;
    /// every refusal is `invalid_grant`. Shared with ``SessionTransferGrant``.
    ///
    /// One read fetches the token with its user and session; a non-rotating use needs nothing else, a
    /// rotating one then marks the token used. Ownership is checked on that read, so another client can
    /// neither spend nor (by reuse) revoke this client's token, nor learn that it expired.
    func redeem(_ token: String, request: TokenRequest) async throws -> RefreshTokenContext {
        let client = request.client.client
        let hash = SecretHash.sha256Hex(token)
        guard var context = try await refreshTokens.refreshTokenContext(hash: hash),
            context.token.clientID == client.clientID
        else { throw OAuthError(.invalidGrant, "Unknown or invalid refresh token") }
        let now = clock.now()
        let use =
            Self.rotates(client)
            ? try await refreshTokens.useRefreshToken(hash: hash, rotating: true, now: now)
            : context.token.nonRotatingUse(at: now)
        switch use {
        case .valid(let valid):
            context.token = valid
            return context
        case .reused(let reused):
            _ = try await familyRevocation.revoke(
                family: reused.familyID, of: reused.clientID, at: now)
            issuer.log(
                .refreshTokenReused, request: request, clientID: client.clientID,
                description: "A rotated refresh token was reused; its family is revoked", audience: reused.audience,
                userID: reused.userID)
            throw OAuthError(.invalidGrant, "Unknown or invalid refresh token")
        case .expired:
            throw OAuthError(.invalidGrant, "The refresh token has expired")
        case .revoked, .notFound:
            throw OAuthError(.invalidGrant, "Unknown or invalid refresh token")
        }
    }

    /// What a redeemed token stands for, issued now with `scope`: `invalid_grant` when the user was deleted or
    /// blocked since. `auth_time` is the session's when there still is one, else when the token was made.
    func userGrant(_ context: RefreshTokenContext, client: Client, scope: [String]) throws -> TokenIssuer.UserGrant {
        let record = context.token
        return TokenIssuer.UserGrant(
            client: client, user: try TokenIssuer.activeUser(context.user), scope: scope, audience: record.audience,
            authorizationDetails: record.authorizationDetails, sessionID: record.sessionID,
            authTime: context.sessionAuthTime ?? record.createdAt, nonce: nil, familyID: record.familyID,
            amr: context.sessionAMR)
    }

    /// The organization a token was issued for (SPEC §19: refreshed tokens keep `org_id` and `org_name`), read
    /// now so that a renamed organization gives its new name. A deleted organization, or a user no longer its
    /// member, gets no more tokens for it: `invalid_grant`.
    private func organization(of record: RefreshTokenRecord) async throws -> Organization? {
        guard let id = record.organizationID else { return nil }
        guard let organization = try await organizations.organization(id: id) else {
            throw OAuthError(.invalidGrant, "The organization no longer exists")
        }
        guard try await organizations.isOrganizationMember(userID: record.userID, organizationID: id) else {
            throw OAuthError(.invalidGrant, "The user is no longer a member of the organization \(organization.name)")
        }
        return organization
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
