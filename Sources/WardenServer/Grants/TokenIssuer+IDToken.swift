import Crypto
import Foundation
import WardenCore
import WardenWire

extension TokenIssuer {
    /// Signs an ID token (OIDC Core §2, SPEC §3) with the current key of the client's `jwt_configuration.alg`:
    /// header `typ: JWT` and `kid`; integer `iat`, `exp` (`iat + lifetime_in_seconds`) and `auth_time`; `sid`,
    /// `nonce` when sent, `amr`/`acr` (SPEC §12), `at_hash` of `accessToken`, and the profile claims of the granted
    /// scopes.
    func idToken(_ grant: UserGrant, accessToken: String) async throws -> String {
        let configuration = grant.client.jwtConfiguration
        let key = try await keys.currentKey(for: configuration.alg)
        let now = nowSeconds
        var claims: [(String, JSONValue)] = [
            ("iss", .string(issuer)),
            ("sub", .string(grant.user.userID)),
            ("aud", .string(grant.client.clientID)),
            ("iat", .number(Double(now))),
            ("exp", .number(Double(now + configuration.lifetimeInSeconds))),
            ("azp", .string(grant.client.clientID)),
            ("auth_time", .number(grant.authTime.timeIntervalSince1970.rounded(.down))),
        ]
        if let sessionID = grant.sessionID { claims.append(("sid", .string(sessionID))) }
        if let nonce = grant.nonce { claims.append(("nonce", .string(nonce))) }
        claims += AuthenticationMethod.claims(grant.amr) + grant.organizationClaims
        claims.append(("at_hash", .string(Self.accessTokenHash(accessToken, alg: key.alg))))
        claims += Self.profileClaims(of: grant.user, scope: grant.scope)
        return try key.sign(payload: JSONValue.serializedObject(claims), type: "JWT")
    }

    /// `at_hash` (OIDC Core §3.1.3.6): the base64url left half of the access token's hash under the hash of
    /// the ID token's `alg` — SHA-256 for RS256, ES256 and PS256, SHA-512 for EdDSA over Ed25519 (as the
    /// OpenID Foundation's conformance suite and common libraries compute it).
    static func accessTokenHash(_ accessToken: String, alg: SigningAlgorithm) -> String {
        let input = Data(accessToken.utf8)
        let digest: [UInt8] =
            switch alg {
            case .rs256, .es256, .ps256: Array(SHA256.hash(data: input))
            case .edDSA: Array(SHA512.hash(data: input))
            }
        return Base64URL.encode(digest.prefix(digest.count / 2))
    }

    /// The standard claims a scope releases (OIDC Core §5.4): `profile` → `name`, `given_name`, `family_name`,
    /// `nickname`, `picture`, `updated_at` (integer seconds); `email` → `email`, `email_verified`. Shared by ID tokens and `/userinfo`.
    static func profileClaims(of user: User, scope: [String]) -> [(String, JSONValue)] {
        var claims: [(String, JSONValue)] = []
        if scope.contains("profile") {
            if let name = user.name { claims.append(("name", .string(name))) }
            if let givenName = user.givenName { claims.append(("given_name", .string(givenName))) }
            if let familyName = user.familyName { claims.append(("family_name", .string(familyName))) }
            if let nickname = user.nickname { claims.append(("nickname", .string(nickname))) }
            if let picture = user.picture { claims.append(("picture", .string(picture))) }
            claims.append(("updated_at", .number(user.updatedAt.timeIntervalSince1970.rounded(.down))))
        }
        if scope.contains("email"), let email = user.email {
            claims.append(("email", .string(email)))
            claims.append(("email_verified", .bool(user.emailVerified)))
        }
        return claims
    }
}
