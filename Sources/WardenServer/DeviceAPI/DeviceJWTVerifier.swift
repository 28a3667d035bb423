import Foundation
import WardenCore
import WardenWire

/// Checks the RS256 JWTs a device signs with its enrolled key (SPEC §7.1 device-account JWT, §7.3 DPoP proof,
/// §7.4 challenge response). Times may be fractional; `iat` may run ahead of Warden's clock by at most
/// ``clockSkew``.
struct DeviceJWTVerifier: Sendable {
    static let clockSkew: Double = 60

    let clock: any WardenClock

    /// The enrolled key of `enrollment`.
    static func key(of enrollment: DeviceEnrollment) throws -> JWSVerifier {
        try JWSVerifier(rsaModulus: enrollment.publicKeyModulus, exponent: enrollment.publicKeyExponent)
    }

    /// `token` parsed and signed with RS256 by `enrollment`'s key; `nil` otherwise.
    func signed(_ token: String, by enrollment: DeviceEnrollment) -> CompactJWS? {
        guard let jws = try? CompactJWS(parsing: token), jws.alg == "RS256",
            let key = try? Self.key(of: enrollment), jws.isSigned(by: key)
        else { return nil }
        return jws
    }

    /// Whether `iat` is not in the future, `exp` is, and `exp` is at most `maximumLifetime` after `iat`.
    func isCurrent(_ jws: CompactJWS, maximumLifetime: Double) -> Bool {
        let now = clock.now().timeIntervalSince1970
        guard let iat = jws.numericDate("iat"), let exp = jws.numericDate("exp") else { return false }
        return iat <= now + Self.clockSkew && exp > now && exp - iat <= maximumLifetime
    }

    /// Whether `iat` lies within ``clockSkew`` of now either way (a proof has no `exp`).
    func isFresh(_ jws: CompactJWS) -> Bool {
        guard let iat = jws.numericDate("iat") else { return false }
        return abs(iat - clock.now().timeIntervalSince1970) <= Self.clockSkew
    }
}
