import Hummingbird
import WardenClient

/// Who may call: a valid access token of the issuer for this API (RFC 6750 §2.1, RFC 9068) that carries the
/// scope the endpoint needs.
struct BearerTokenPolicy: Sendable {
    /// Validates signatures against the issuer's JWKS (found through discovery) and checks `iss`, `aud`, `exp`.
    let warden: WardenClient
    /// This API's identifier: the audience its tokens must name, and the realm of its challenges.
    let audience: String

    /// The claims of the request's bearer token, when it is valid and grants `scope`; otherwise the RFC 6750 §3.1
    /// error: 401 without a token or with a bad one, 400 for a malformed header, 403 without the scope.
    func authorize(_ request: Request, scope: String) async throws -> AccessTokenClaims {
        guard let header = request.headers[.authorization] else {
            throw APIError.missingToken(realm: audience)
        }
        let parts = header.split(separator: " ", omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else {
            throw APIError.malformedAuthorization(realm: audience)
        }
        let claims: AccessTokenClaims
        do {
            claims = try await warden.validateAccessToken(String(parts[1]), audience: audience)
        } catch let error as WardenClientError {
            throw APIError.invalidToken(error.errorDescription ?? error.error, realm: audience)
        }
        guard claims.scope.contains(scope) else {
            throw APIError.insufficientScope(scope, realm: audience)
        }
        return claims
    }
}
