import Foundation
import JWTKit
import WardenWire

extension WardenClient {
    /// Validates an ID token (OpenID Connect Core §3.1.3.7, SPEC §3) and returns its claims.
    ///
    /// Checks, in order: the JWS signature against the provider's JWKS (fetched once more when the `kid` is
    /// unknown, so a key rotation is picked up), `iss` is the issuer, `aud` contains this client, `azp` is this
    /// client when present (and present when there are several audiences), `exp` is not past, `iat` is not in
    /// the future, `nonce` is the one sent, and with `maxAge` that `auth_time` is recent enough (§3.1.2.1) —
    /// times with ``Configuration/leeway``. Throws `invalid_id_token` whose description names the failed check.
    public func validateIDToken(_ idToken: String, nonce: String? = nil, maxAge: Duration? = nil) async throws
        -> IDTokenClaims
    {
        let fail = WardenClientError.invalidIDToken
        let claims = try await verifiedClaims(idToken, fail: fail)
        let clientID = configuration.clientID
        guard claims.audience.contains(clientID) else {
            throw fail("aud \(claims.audience) does not contain the client id \(clientID)")
        }
        let azp = claims.all["azp"]?.stringValue
        if let azp, azp != clientID { throw fail("azp \(azp) is not the client id \(clientID)") }
        if azp == nil, claims.audience.count > 1 { throw fail("azp is missing although there are several audiences") }
        let now = Date()
        guard let issuedAt = claims.date("iat") else { throw fail("iat is missing") }
        guard issuedAt <= now.addingTimeInterval(leewaySeconds) else { throw fail("iat is in the future") }
        if let nonce {
            guard let claimed = claims.all["nonce"]?.stringValue, SecretHash.constantTimeEquals(claimed, nonce) else {
                throw fail("nonce does not match the request's")
            }
        }
        let authTime = claims.date("auth_time")
        if let maxAge {
            guard let authTime else { throw fail("auth_time is missing although max_age was requested") }
            let limit = authTime.addingTimeInterval(JWTVerifier.seconds(maxAge) + leewaySeconds)
            guard now <= limit else { throw fail("auth_time is older than max_age") }
        }
        guard let subject = claims.all["sub"]?.stringValue else { throw fail("sub is missing") }
        return IDTokenClaims(
            subject: subject, issuer: claims.issuer, audience: claims.audience, expiresAt: claims.expiresAt,
            issuedAt: issuedAt, nonce: claims.all["nonce"]?.stringValue, authTime: authTime, azp: azp,
            all: claims.all)
    }

    /// Validates a JWT access token for the API `audience` (RFC 9068 §4, SPEC §3), as a resource server does:
    /// the header `typ` is `at+jwt`, the signature checks against the provider's JWKS (refetched once for an
    /// unknown `kid`), `iss` is the issuer, `aud` contains `audience`, `exp` is not past (with
    /// ``Configuration/leeway``). Throws `invalid_token` (RFC 6750 §3.1, what a resource server answers with
    /// 401) whose description names the failed check.
    public func validateAccessToken(_ accessToken: String, audience: String) async throws -> AccessTokenClaims {
        let fail = { (detail: String) in WardenClientError(error: "invalid_token", errorDescription: detail) }
        let claims = try await verifiedClaims(accessToken, fail: fail, type: "at+jwt")
        guard claims.audience.contains(audience) else {
            throw fail("aud \(claims.audience) does not contain \(audience)")
        }
        let scope = claims.all["scope"]?.stringValue?.split(separator: " ").map(String.init) ?? []
        return AccessTokenClaims(
            subject: claims.all["sub"]?.stringValue, clientID: claims.all["client_id"]?.stringValue, scope: scope,
            audience: claims.audience, expiresAt: claims.expiresAt,
            authorizationDetails: claims.all["authorization_details"]?.arrayValue ?? [], all: claims.all)
    }

    /// How many times the JWKS was fetched so far (shared by copies of this client).
    public var jwksFetchCount: Int {
        get async { await keys.fetchCount }
    }

    // MARK: - Shared JWT checks

    /// The checks shared with the resource-server SDK, for this client's issuer and leeway.
    private var verifier: JWTVerifier {
        JWTVerifier(keys: keys, issuer: configuration.metadata.issuer.absoluteString, leeway: configuration.leeway)
    }

    private var leewaySeconds: Double { verifier.leewaySeconds }

    private func verifiedClaims(
        _ token: String, fail: (String) -> WardenClientError, type: String? = nil
    ) async throws -> VerifiedClaims {
        try await verifier.verify(token, type: type, fail: fail)
    }
}
