public import Foundation
public import WardenWire

/// Checks an upstream identity provider's ID token as OIDC Core §3.1.3.7 says (SPEC §15 "Sign-in"), without
/// any network: the caller hands in the upstream JWKS it fetched and, on ``UpstreamIDTokenError/Code/kid``, fetches
/// it again once and retries.
///
/// In order: the token is a compact JWS of at most 16 KiB (``CompactJWS``; it is attacker input) without `crit`;
/// its `alg` is one of ``algorithms``; a key of the JWKS fits — the one its `kid` names, or without `kid` every
/// key usable for that `alg` — and verifies the signature; `sub` is a string; `iss` is ``issuer`` exactly; `aud`
/// contains ``clientID``; `azp` is ``clientID`` when present and is present when `aud` has several values; `exp` is
/// after ``now`` and `iat` (and `nbf` when present) not after it, each within ``clockSkew``; `nonce` is the one sent.
public struct UpstreamIDTokenValidator: Sendable {
    /// `id_token_signed_response_algs` by default: every algorithm Warden verifies (never `none` or HMAC, which
    /// ``SigningAlgorithm`` cannot express).
    public static let defaultAlgorithms: Set<SigningAlgorithm> = Set(SigningAlgorithm.allCases)
    /// The clock skew allowed on `exp`, `iat` and `nbf` (SPEC §15: 60 s).
    public static let defaultClockSkew: TimeInterval = 60

    /// The connection's issuer, compared with `iss` as an exact string.
    public let issuer: String
    /// The connection's `client_id` at the upstream.
    public let clientID: String
    /// The header `alg` values accepted.
    public let algorithms: Set<SigningAlgorithm>
    /// Seconds of tolerance between Warden's clock and the upstream's.
    public let clockSkew: TimeInterval
    /// The time the token is checked at.
    public let now: Date

    public init(
        issuer: String, clientID: String, algorithms: Set<SigningAlgorithm> = defaultAlgorithms,
        clockSkew: TimeInterval = defaultClockSkew, now: Date
    ) {
        self.issuer = issuer
        self.clientID = clientID
        self.algorithms = algorithms
        self.clockSkew = clockSkew
        self.now = now
    }

    /// The algorithms among configured `id_token_signed_response_algs` names that Warden verifies: `none`, HMAC
    /// (`HS256` …) and any other name are dropped, even when configured.
    public static func algorithms(named names: [String]) -> Set<SigningAlgorithm> {
        Set(names.compactMap(SigningAlgorithm.init(rawValue:)))
    }

    /// The verified claims of `token`, checked against the upstream's JWK Set `jwks` (`{"keys": [...]}`, RFC 7517
    /// §5) and, when the authorization request carried one, `nonce`.
    public func validate(_ token: String, jwks: JSONValue, nonce: String?) throws(UpstreamIDTokenError)
        -> [String: JSONValue]
    {
        guard let jws = try? CompactJWS(parsing: token), jws.header["crit"] == nil else {
            throw UpstreamIDTokenError(.malformed, "The ID token is not a compact JWS Warden can read")
        }
        guard let name = jws.alg, let alg = SigningAlgorithm(rawValue: name), algorithms.contains(alg) else {
            throw UpstreamIDTokenError(.alg, "The ID token's alg is not allowed for this connection")
        }
        try verifySignature(of: jws, alg: alg, jwks: jwks)
        try checkClaims(jws, nonce: nonce)
        return jws.payload
    }

    private func verifySignature(of jws: CompactJWS, alg: SigningAlgorithm, jwks: JSONValue)
        throws(UpstreamIDTokenError)
    {
        let keys = (jwks["keys"]?.arrayValue ?? []).compactMap(\.objectValue)
        let named = jws.kid.map { kid in keys.filter { $0["kid"]?.stringValue == kid } } ?? keys
        if jws.kid != nil, named.isEmpty {
            throw UpstreamIDTokenError(.kid, "No key of the upstream JWKS has the ID token's kid")
        }
        let verifiers = named.compactMap { Self.verifier(jwk: $0, alg: alg) }
        if verifiers.isEmpty {
            throw jws.kid == nil
                ? UpstreamIDTokenError(.kid, "No key of the upstream JWKS fits the ID token's alg")
                : UpstreamIDTokenError(.alg, "The key the ID token's kid names is not for its alg")
        }
        guard verifiers.contains(where: jws.isSigned(by:)) else {
            throw UpstreamIDTokenError(.signature, "The ID token's signature does not verify")
        }
    }

    /// A verifier for `jwk` when it is a public signature key usable for `alg` (RFC 7517 §4.2–4.4: `use`, `key_ops`
    /// and `alg` when present; the key type and curve of the algorithm, RFC 7518 §6, RFC 8037 §2).
    static func verifier(jwk: [String: JSONValue], alg: SigningAlgorithm) -> JWSVerifier? {
        if let use = jwk["use"], use != "sig" { return nil }
        if let keyAlg = jwk["alg"], keyAlg.stringValue != alg.rawValue { return nil }
        if let operations = jwk["key_ops"], operations.arrayValue?.contains("verify") != true { return nil }
        guard let verifier = try? JWSVerifier(publicJWK: jwk), verifier.accepts(alg: alg.rawValue) else { return nil }
        return verifier
    }

    private func checkClaims(_ jws: CompactJWS, nonce: String?) throws(UpstreamIDTokenError) {
        let claims = jws.payload
        guard let subject = claims["sub"]?.stringValue, !subject.isEmpty else {
            throw UpstreamIDTokenError(.malformed, "The ID token has no sub")
        }
        guard claims["iss"]?.stringValue == issuer else {
            throw UpstreamIDTokenError(.iss, "The ID token's iss is not the connection's issuer")
        }
        guard jws.audiences.contains(clientID) else {
            throw UpstreamIDTokenError(.aud, "The ID token's aud does not contain the connection's client_id")
        }
        if let azp = claims["azp"] {
            guard azp.stringValue == clientID else {
                throw UpstreamIDTokenError(.azp, "The ID token's azp is not the connection's client_id")
            }
        } else if (claims["aud"]?.arrayValue?.count ?? 1) > 1 {
            throw UpstreamIDTokenError(.azp, "The ID token has several audiences and no azp")
        }
        let seconds = now.timeIntervalSince1970
        guard let exp = jws.numericDate("exp"), seconds < exp + clockSkew else {
            throw UpstreamIDTokenError(.exp, "The ID token has expired")
        }
        guard let iat = jws.numericDate("iat"), iat <= seconds + clockSkew else {
            throw UpstreamIDTokenError(.iat, "The ID token's iat is missing or in the future")
        }
        if claims["nbf"] != nil {
            guard let nbf = jws.numericDate("nbf"), nbf <= seconds + clockSkew else {
                throw UpstreamIDTokenError(.iat, "The ID token is not valid yet (nbf)")
            }
        }
        if let nonce {
            guard let claimed = claims["nonce"]?.stringValue, SecretHash.constantTimeEquals(claimed, nonce) else {
                throw UpstreamIDTokenError(.nonce, "The ID token's nonce is not the one sent")
            }
        }
    }
}
