import Foundation
import HTTPTypes
import Hummingbird
import WardenCore
import WardenWire

/// `GET|POST /userinfo` (OIDC Core §5.3, SPEC §3): the claims of the user an access token was issued for —
/// `sub`, plus the profile and e-mail claims of the token's scopes (OIDC Core §5.4).
///
/// The token comes as `Authorization: Bearer` (RFC 6750 §2.1) or, on `POST`, as the `access_token` form field
/// (§2.2), never both. It must be an access token Warden signed with a published key, unexpired, issued by
/// this issuer for the audience `{issuer}userinfo`. Without a token the answer is 401 with a bare
/// `WWW-Authenticate: Bearer realm="warden"` (§3.1); a bad token, a revoked one (``AccessTokenRevocation``), or
/// one whose user was deleted or blocked, is 401 `invalid_token`.
struct UserInfoController: Sendable {
    let accessTokens: AccessTokenVerifier
    let revocations: AccessTokenRevocation
    let users: any UserStore
    let clock: any WardenClock
    /// `{issuer}userinfo`, the audience a token must have.
    let audience: String

    /// The endpoint answering with the users of `users` for the tokens `accessTokens` verifies for `audience`.
    init(
        accessTokens: AccessTokenVerifier, revocations: AccessTokenRevocation, users: any UserStore,
        clock: any WardenClock, audience: String
    ) {
        self.accessTokens = accessTokens
        self.revocations = revocations
        self.users = users
        self.clock = clock
        self.audience = audience
    }

    func addRoutes(to router: Router<WardenRequestContext>) {
        router.get("userinfo") { request, _ in try await userInfo(request) }
        router.post("userinfo") { request, _ in try await userInfo(request) }
    }

    func userInfo(_ request: Request) async throws -> Response {
        let claims = try verify(try await bearerToken(of: request))
        // SPEC §5: a replayed code (or a revoked refresh token) revokes the access tokens of its grant.
        if try await revocations.isRevoked(claims, now: clock.now()) {
            throw invalidToken("The access token was revoked")
        }
        guard let userID = claims.payload["sub"]?.stringValue,
            let record = try await users.user(id: userID), !record.user.blocked
        else { throw invalidToken("The user of this token no longer exists") }
        let scope = (claims.payload["scope"]?.stringValue ?? "").split(separator: " ").map(String.init)
        let members = [("sub", JSONValue.string(userID))] + TokenIssuer.profileClaims(of: record.user, scope: scope)
        return .json(JSONValue.serializedObject(members), noStore: true)
    }

    /// The token from the `Authorization` header or, for a form `POST`, the `access_token` field.
    private func bearerToken(of request: Request) async throws -> String {
        let header = HeaderValue.credentials(request.headers[.authorization], scheme: "bearer").map(String.init)
        var field: String?
        if request.method == .post,
            HeaderValue.mediaType(request.headers[.contentType]) == "application/x-www-form-urlencoded"
        {
            field = try await RequestParameters.read(from: request)["access_token"]
        }
        switch (header, field) {
        case (let token?, nil), (nil, let token?):
            return token
        case (.some, .some):
            throw OAuthError.invalidRequest("Send the access token in one place only")
        case (nil, nil):
            throw OAuthError(
                .invalidToken, "Missing access token", headers: [("WWW-Authenticate", "Bearer realm=\"warden\"")])
        }
    }

    /// An access token (RFC 9068 §4) this issuer signed for `{issuer}userinfo`, unexpired.
    private func verify(_ token: String) throws(OAuthError) -> CompactJWS {
        do {
            return try accessTokens.verify(token, audience: audience)
        } catch {
            switch error {
            case .invalid: throw invalidToken("Invalid access token")
            case .wrongAudience: throw invalidToken("The access token is not valid for /userinfo")
            case .expired: throw invalidToken("The access token has expired")
            }
        }
    }

    private func invalidToken(_ description: String) -> OAuthError {
        OAuthError(.invalidToken, description, headers: [("WWW-Authenticate", "Bearer error=\"invalid_token\"")])
    }
}
