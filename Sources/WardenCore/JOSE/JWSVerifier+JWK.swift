import Crypto
import CryptoExtras
import Foundation
public import WardenWire

extension JWSVerifier {
    /// A key from a public JWK (RFC 7517): RSA of 2048 bits or more (RFC 7518 §6.3), P-256 (RFC 7518 §6.2) or
    /// Ed25519 (RFC 8037 §2) — a client's key for `private_key_jwt` (SPEC §13, which stores only RSA and P-256 as
    /// PEM) or an upstream identity provider's (SPEC §15). A JWK carrying private parts (`d`) is refused.
    public init(publicJWK jwk: [String: JSONValue]) throws {
        guard jwk["d"] == nil else { throw JWSError.malformedKey }
        switch jwk["kty"]?.stringValue {
        case "RSA":
            guard let n = jwk["n"]?.stringValue, let e = jwk["e"]?.stringValue else { throw JWSError.malformedKey }
            try self.init(rsaModulus: n, exponent: e)
        case "EC":
            guard jwk["crv"]?.stringValue == "P-256", let x = jwk["x"]?.stringValue.flatMap(Base64URL.decode),
                let y = jwk["y"]?.stringValue.flatMap(Base64URL.decode), x.count == 32, y.count == 32,
                let key = try? P256.Signing.PublicKey(rawRepresentation: x + y)
            else { throw JWSError.malformedKey }
            self = .ec(key)
        case "OKP":
            guard jwk["crv"]?.stringValue == "Ed25519", let x = jwk["x"]?.stringValue.flatMap(Base64URL.decode),
                let key = try? Curve25519.Signing.PublicKey(rawRepresentation: x)
            else { throw JWSError.malformedKey }
            self = .ed(key)
        default:
            throw JWSError.malformedKey
        }
    }

    /// The PEM of an RSA or P-256 key, as the keys an operator registers are stored (SPEC §4); `nil` for Ed25519.
    public var publicKeyPEM: String? {
        switch self {
        case .rsa(let key, _): key.pemRepresentation
        case .ec(let key): key.pemRepresentation
        case .ed: nil
        }
    }
}
