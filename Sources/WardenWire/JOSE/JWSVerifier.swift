public import Crypto
public import CryptoExtras
public import Foundation

/// A public key that checks JWS signatures (RFC 7515 §5.2): Warden's own keys for Management API tokens,
/// clients' registered keys for `private_key_jwt` (RFC 7523), devices' keys for the authenticator protocol.
public enum JWSVerifier: Sendable {
    /// An RSA key for RS256, or with `pss` for PS256 only (RFC 7518 §3.3, §3.5).
    case rsa(_RSA.Signing.PublicKey, pss: Bool)
    /// A P-256 key for ES256 (RFC 7518 §3.4).
    case ec(P256.Signing.PublicKey)
    /// An Ed25519 key for EdDSA (RFC 8037 §3.1).
    case ed(Curve25519.Signing.PublicKey)

    /// Loads a PEM public key (RSA or P-256) as registered on a client.
    public init(pem: String) throws {
        if let key = try? _RSA.Signing.PublicKey(pemRepresentation: pem) {
            self = .rsa(key, pss: false)
        } else if let key = try? P256.Signing.PublicKey(pemRepresentation: pem) {
            self = .ec(key)
        } else {
            throw JWSError.malformedKey
        }
    }

    /// An RS256 key from the base64url `n` and `e` of an RSA JWK (RFC 7518 §6.3.1); a leading zero byte, as
    /// some encoders write, is accepted. Throws ``JWSError/malformedKey`` for anything under 2048 bits.
    public init(rsaModulus modulus: String, exponent: String) throws {
        guard let n = Base64URL.decode(modulus), let e = Base64URL.decode(exponent), !e.isEmpty else {
            throw JWSError.malformedKey
        }
        let stripped = n.drop(while: { $0 == 0 })
        guard stripped.count >= 256, stripped.count <= 1024,
            let key = try? _RSA.Signing.PublicKey(n: stripped, e: e.drop(while: { $0 == 0 }))
        else { throw JWSError.malformedKey }
        self = .rsa(key, pss: false)
    }

    /// Whether this key can check a signature made with JWS `alg`.
    public func accepts(alg: String) -> Bool {
        switch self {
        case .rsa(_, let pss): pss ? alg == "PS256" : (alg == "RS256" || alg == "PS256")
        case .ec: alg == "ES256"
        case .ed: alg == "EdDSA"
        }
    }

    /// Checks `signature` over `signingInput` for `alg`.
    public func isValid(signature: Data, signingInput: Data, alg: String) -> Bool {
        guard accepts(alg: alg) else { return false }
        switch self {
        case .rsa(let key, _):
            let padding: _RSA.Signing.Padding = alg == "PS256" ? .PSS : .insecurePKCS1v1_5
            return key.isValidSignature(
                _RSA.Signing.RSASignature(rawRepresentation: signature), for: SHA256.hash(data: signingInput),
                padding: padding)
        case .ec(let key):
            guard let parsed = try? P256.Signing.ECDSASignature(rawRepresentation: signature) else { return false }
            return key.isValidSignature(parsed, for: SHA256.hash(data: signingInput))
        case .ed(let key):
            return key.isValidSignature(signature, for: signingInput)
        }
    }
}
