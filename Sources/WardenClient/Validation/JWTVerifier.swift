package import Foundation
import JWTKit
package import WardenWire

/// The checks every Warden JWT must pass, whoever reads it: the header (`alg` among the accepted ones, a `kid`,
/// and `typ` when asked), the signature against the issuer's JWKS, `iss`, `exp` and `nbf` (with a leeway).
///
/// Shared by ``WardenClient`` (ID tokens, access tokens) and the `WardenResourceServer` product (hence
/// `package`); the caller checks the audience and the claims of its token type.
package struct JWTVerifier: Sendable {
    /// The JWS algorithms accepted; Warden signs with RS256 by default, ES256 per client or API, and PS256 or
    /// EdDSA when configured (SPEC §2). `none` and MACs are never accepted.
    package static let acceptedAlgorithms: Set<String> = ["RS256", "ES256", "PS256", "EdDSA"]

    package let keys: JWKSCache
    /// The expected `iss`, exactly.
    package let issuer: String
    /// The clock skew tolerated on `exp`, `nbf` (and, by callers, `iat`, `auth_time`).
    package let leeway: Duration

    package init(keys: JWKSCache, issuer: String, leeway: Duration) {
        self.keys = keys
        self.issuer = issuer
        self.leeway = leeway
    }

    package var leewaySeconds: Double { Self.seconds(leeway) }

    package static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// Checks `token` and returns its claims; a failed check throws `fail(detail)` naming it. A JWKS that cannot
    /// be fetched throws the transport's ``WardenClientError`` (`transport`, `invalid_response`, …) as it is.
    package func verify(
        _ token: String, type: String? = nil, now: Date = Date(), fail: (String) -> WardenClientError
    ) async throws -> VerifiedClaims {
        guard let jws = try? CompactJWS(parsing: token) else { throw fail("not a JWS compact serialization") }
        guard let alg = jws.alg, Self.acceptedAlgorithms.contains(alg) else {
            throw fail("alg \(jws.alg ?? "(none)") is not accepted")
        }
        if let type {
            let typ = jws.header["typ"]?.stringValue?.lowercased()
            guard typ == type || typ == "application/" + type else { throw fail("typ is not \(type)") }
        }
        guard let kid = jws.kid else { throw fail("the header has no kid") }
        guard let keys = try await keys.keys(containing: kid) else { throw fail("no key with kid \(kid) in the JWKS") }
        do {
            _ = try await keys.verify(token, as: UnverifiedPayload.self)
        } catch {
            throw fail("the signature does not verify")
        }
        guard jws.payload["iss"]?.stringValue == issuer else {
            throw fail("iss \(jws.payload["iss"]?.stringValue ?? "(none)") is not \(issuer)")
        }
        guard let exp = jws.numericDate("exp") else { throw fail("exp is missing") }
        let expiresAt = Date(timeIntervalSince1970: exp)
        guard now < expiresAt.addingTimeInterval(leewaySeconds) else { throw fail("the token has expired") }
        if let nbf = jws.numericDate("nbf"), now.addingTimeInterval(leewaySeconds) < Date(timeIntervalSince1970: nbf) {
            throw fail("the token is not valid yet (nbf)")
        }
        return VerifiedClaims(issuer: issuer, audience: jws.audiences, expiresAt: expiresAt, all: jws.payload)
    }
}

/// The claims of a JWS whose signature, `iss`, `exp` and `nbf` were checked.
package struct VerifiedClaims: Sendable {
    package var issuer: String
    package var audience: [String]
    package var expiresAt: Date
    package var all: [String: JSONValue]

    /// A NumericDate claim (RFC 7519 §2).
    package func date(_ claim: String) -> Date? {
        all[claim]?.doubleValue.map(Date.init(timeIntervalSince1970:))
    }
}

/// A payload JWTKit decodes without checking claims: the SDK checks them itself, with its own errors.
private struct UnverifiedPayload: JWTPayload {
    init(from decoder: any Decoder) throws {}
    func encode(to encoder: any Encoder) throws {}
    func verify(using algorithm: some JWTAlgorithm) async throws {}
}
