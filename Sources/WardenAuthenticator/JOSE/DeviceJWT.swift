public import Foundation
import WardenWire

/// The JWTs a device signs with its ``DeviceKey`` (all RS256, RFC 7515 compact serialization, RFC 7519 claims).
///
/// ``Authenticator`` builds these itself; they are public for tools and tests that speak the protocol
/// directly. Times are whole seconds since 1970.
public enum DeviceJWT {
    /// The most a challenge response may live (SPEC §7.4: `exp` ≤ 60 s after `iat`).
    public static let challengeResponseLifetime: TimeInterval = 60
    /// The lifetime of device-account tokens the SDK signs (SPEC §7.1 allows at most 2 h).
    public static let deviceAccountTokenLifetime: TimeInterval = 300

    /// The `challenge_response` of SPEC §7.4: header `{"alg":"RS256","typ":"JWT"}` (no `kid`), claims `iss` (the
    /// device `identifier`), `sub` (the challenge `c`), `aud` (`{issuer}appliance-mfa/api/resolve-transaction`),
    /// `iat`, `exp` (`iat` + `lifetime`, at most 60 s), `auth0_guardian_method` (`"push"`),
    /// `auth0_guardian_accepted` and, for a rejection with a reason, `auth0_guardian_reason`.
    public static func challengeResponse(
        deviceIdentifier: String, challenge: String, issuer: String, accepted: Bool, reason: String? = nil,
        key: DeviceKey, now: Date = Date(), lifetime: TimeInterval = challengeResponseLifetime
    ) throws -> String {
        let iat = Self.seconds(now)
        let claims = ChallengeResponseClaims(
            iss: deviceIdentifier, sub: challenge,
            aud: Self.withSlash(issuer) + "appliance-mfa/api/resolve-transaction",
            iat: iat, exp: iat + Int(min(lifetime, challengeResponseLifetime)), method: "push", accepted: accepted,
            reason: reason)
        return try CompactJWS.sign(header: DeviceJWTHeader(typ: "JWT"), claims: claims, key: key)
    }

    /// The DPoP proof of SPEC §7.3 (RFC 9449 §4.2): header `{"alg":"RS256","typ":"dpop+jwt","jwk": public JWK}`,
    /// claims `htu` (the request URL without query and fragment), `htm`, `ath` (base64url SHA-256 of the
    /// transaction token), `jti` (random) and `iat`.
    public static func dpopProof(
        method: String, url: URL, transactionToken: String, key: DeviceKey, now: Date = Date()
    ) throws -> String {
        let claims = DPoPClaims(
            htu: htu(url), htm: method.uppercased(),
            ath: SecretHash.sha256Base64URL(transactionToken), jti: RandomToken.make(bytes: 16),
            iat: Self.seconds(now))
        return try CompactJWS.sign(
            header: DeviceJWTHeader(typ: "dpop+jwt", jwk: key.publicJWK), claims: claims, key: key)
    }

    /// The device-account JWT of SPEC §7.1 (also used by §7.5): header `{"alg":"RS256","typ":"JWT"}`, claims
    /// `iss` (the enrollment id), `sub` (the user id), `aud` (`{issuer}appliance-mfa/api/device-accounts`),
    /// `iat`, `exp` (`iat` + `lifetime`, at most 2 h).
    public static func deviceAccountToken(
        enrollmentID: String, userID: String, issuer: String, key: DeviceKey, now: Date = Date(),
        lifetime: TimeInterval = deviceAccountTokenLifetime
    ) throws -> String {
        let iat = Self.seconds(now)
        let claims = DeviceAccountClaims(
            iss: enrollmentID, sub: userID, aud: Self.withSlash(issuer) + "appliance-mfa/api/device-accounts",
            iat: iat, exp: iat + Int(min(lifetime, 7200)))
        return try CompactJWS.sign(header: DeviceJWTHeader(typ: "JWT"), claims: claims, key: key)
    }

    // MARK: - Helpers

    static func seconds(_ date: Date) -> Int { Int(date.timeIntervalSince1970.rounded(.down)) }

    static func withSlash(_ issuer: String) -> String { issuer.hasSuffix("/") ? issuer : issuer + "/" }

    /// RFC 9449 §4.2: `htu` is the target URI without query and fragment.
    static func htu(_ url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return url.absoluteString }
        components.query = nil
        components.fragment = nil
        return components.string ?? url.absoluteString
    }
}

struct ChallengeResponseClaims: Encodable {
    var iss: String
    var sub: String
    var aud: String
    var iat: Int
    var exp: Int
    var method: String
    var accepted: Bool
    var reason: String?

    enum CodingKeys: String, CodingKey {
        case iss, sub, aud, iat, exp
        case method = "auth0_guardian_method"
        case accepted = "auth0_guardian_accepted"
        case reason = "auth0_guardian_reason"
    }
}

struct DPoPClaims: Encodable {
    var htu: String
    var htm: String
    var ath: String
    var jti: String
    var iat: Int
}

struct DeviceAccountClaims: Encodable {
    var iss: String
    var sub: String
    var aud: String
    var iat: Int
    var exp: Int
}
