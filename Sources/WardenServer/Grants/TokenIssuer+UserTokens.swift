import Foundation
import WardenCore
import WardenWire

extension TokenIssuer {
    /// The access token lifetime without an API (SPEC §3: the default `token_lifetime`).
    static let defaultAccessTokenLifetime = 86400

    /// What a user authorized a client to receive: the input shared by every grant that issues tokens for a
    /// user (the authorization code, the refresh token).
    struct UserGrant: Sendable {
        var client: Client
        var user: User
        /// The scopes of the tokens issued now.
        var scope: [String]
        /// The API the access token is for; `nil` gives a `{issuer}userinfo`-only token (SPEC §3).
        var audience: String?
        var authorizationDetails: JSONValue?
        /// The SSO session (`sid`, OIDC Front-Channel Logout §3).
        var sessionID: String?
        var authTime: Date
        var nonce: String?
        /// The refresh-token family (SPEC §3).
        var familyID: String
        /// What the user did to sign in (SPEC §12 "Tokens": `amr`, and `acr` after a second factor); empty when
        /// not known (no session: CIBA, a refresh token whose session ended).
        var amr: [AuthenticationMethod] = []
        /// The organization of the login (SPEC §19): `org_id` and `org_name` in both tokens.
        var organization: Organization? = nil

        /// `org_id` and `org_name`, when the login was for an organization.
        var organizationClaims: [(String, JSONValue)] {
            organization.map { [("org_id", .string($0.id)), ("org_name", .string($0.name))] } ?? []
        }
    }

    /// Whether a token response carries a new refresh token (SPEC §3).
    enum RefreshTokenIssue: Sendable {
        /// When the grant qualifies: `offline_access` granted, the client has the `refresh_token` grant and,
        /// with an audience, the API has `allow_offline_access`.
        case whenOffered
        /// The successor of a rotated token, with the scope of the token it replaces (RFC 6749 §6).
        case rotated(scope: [String])
        case never
    }

    /// Issues the tokens of a user grant (RFC 6749 §5.1, OIDC Core §3.1.3.3): an access token (SPEC §3), an
    /// ID token when `openid` was granted, and a refresh token per `refreshToken`. Throws `invalid_grant` when
    /// the API of the grant no longer exists.
    func userTokens(_ grant: UserGrant, refreshToken: RefreshTokenIssue) async throws -> TokenResponse {
        var api: ResourceServer?
        if let audience = grant.audience {
            api = try await tenant.resourceServer(identifier: audience)
            guard api != nil else { throw OAuthError(.invalidGrant, "The API \(audience) no longer exists") }
        }
        let openID = grant.scope.contains("openid")
        var audiences = api.map { [$0.identifier] } ?? []
        if openID || api == nil { audiences.append(userinfoAudience) }
        let lifetime = api?.tokenLifetime ?? Self.defaultAccessTokenLifetime
        let accessToken = try await accessToken(
            .init(
                subject: grant.user.userID, audiences: audiences, clientID: grant.client.clientID, scope: grant.scope,
                lifetime: lifetime, algorithm: api?.signingAlg ?? .rs256,
                authorizationDetails: grant.authorizationDetails,
                extraClaims: [(AccessTokenRevocation.claim, .string(grant.familyID))]
                    + AuthenticationMethod.claims(grant.amr) + grant.organizationClaims))
        var members: [(String, JSONValue)] = [("access_token", .string(accessToken))]
        let refreshScope: [String]? =
            switch refreshToken {
            case .whenOffered: offersRefreshToken(grant, api: api) ? grant.scope : nil
            case .rotated(let scope): scope
            case .never: nil
            }
        if let refreshScope {
            members.append(("refresh_token", .string(try await storeRefreshToken(grant, scope: refreshScope))))
        }
        if openID {
            members.append(("id_token", .string(try await idToken(grant, accessToken: accessToken))))
        }
        if let details = grant.authorizationDetails { members.append(("authorization_details", details)) }
        members += [
            ("scope", .string(grant.scope.joined(separator: " "))),
            ("expires_in", .number(Double(lifetime))),
            ("token_type", "Bearer"),
        ]
        return TokenResponse(members: members)
    }

    /// SPEC §3: a refresh token only for `offline_access`, a client allowed the `refresh_token` grant, and an
    /// API (when there is one) that allows offline access.
    private func offersRefreshToken(_ grant: UserGrant, api: ResourceServer?) -> Bool {
        grant.scope.contains("offline_access") && grant.client.allows(.refreshToken)
            && (api?.allowOfflineAccess ?? true)
    }

    /// Mints an opaque refresh token (SPEC §3: 256 random bits, stored only as its SHA-256) in the grant's
    /// family; it expires per the client's `refresh_token.token_lifetime` when `expiration_type` is `expiring`.
    /// A family revoked meanwhile (reuse detected by a concurrent request, a replayed code) gets no new token:
    /// `invalid_grant` (RFC 9700 §4.14.2).
    func storeRefreshToken(_ grant: UserGrant, scope: [String]) async throws -> String {
        let token = RandomToken.make()
        let now = clock.now()
        let settings = grant.client.refreshToken
        do {
            try await refreshTokens.insertRefreshToken(
                RefreshTokenRecord(
                    tokenHash: SecretHash.sha256Hex(token), familyID: grant.familyID, clientID: grant.client.clientID,
                    userID: grant.user.userID, audience: grant.audience, scope: scope,
                    authorizationDetails: grant.authorizationDetails, sessionID: grant.sessionID, createdAt: now,
                    expiresAt: settings.expirationType == .expiring
                        ? now.addingTimeInterval(Double(settings.tokenLifetime)) : nil,
                    organizationID: grant.organization?.id))
        } catch StorageError.revoked {
            throw OAuthError(.invalidGrant, "Unknown or invalid refresh token")
        }
        return token
    }

    /// The user a grant is for, or `invalid_grant` when it was deleted or blocked since.
    func activeUser(id: String) async throws -> User {
        try Self.activeUser(try await users.user(id: id))
    }

    /// The user of `record`, or `invalid_grant` when there is none (deleted) or it is blocked.
    static func activeUser(_ record: UserRecord?) throws(OAuthError) -> User {
        guard let record, !record.user.blocked else {
            throw OAuthError(.invalidGrant, "The user is unknown or blocked")
        }
        return record.user
    }
}
