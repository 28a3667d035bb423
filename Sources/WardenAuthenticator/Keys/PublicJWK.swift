public import Foundation
import WardenWire

/// A device's RSA public key as a JSON Web Key (RFC 7517 §4, RFC 7518 §6.3.1):
/// `{"kty":"RSA","use":"sig","alg":"RS256","n","e"}`, the `public_key` of SPEC §7.1 and the `jwk` header of
/// the SPEC §7.3 DPoP proof.
///
/// `n` and `e` are unsigned big-endian integers in base64url without padding and without leading zero bytes
/// (RFC 7518 §6.3.1.1).
public struct PublicJWK: Sendable, Hashable, Codable {
    /// Key type, `"RSA"`.
    public var kty: String
    /// Intended use, `"sig"`.
    public var use: String
    /// Algorithm, `"RS256"`.
    public var alg: String
    /// Modulus, base64url.
    public var n: String
    /// Public exponent, base64url (`"AQAB"` for 65537).
    public var e: String

    /// Creates an RS256 signing JWK from the big-endian modulus and exponent; leading zero bytes are stripped.
    public init(modulus: some DataProtocol, exponent: some DataProtocol) {
        kty = "RSA"
        use = "sig"
        alg = "RS256"
        n = Base64URL.encode(Self.strippingLeadingZeros(modulus))
        e = Base64URL.encode(Self.strippingLeadingZeros(exponent))
    }

    /// The modulus bytes (decoded `n`), or `nil` when `n` is not base64url.
    public var modulus: Data? { Base64URL.decode(n) }
    /// The exponent bytes (decoded `e`), or `nil` when `e` is not base64url.
    public var exponent: Data? { Base64URL.decode(e) }

    /// The RFC 7638 thumbprint: base64url(SHA-256 of `{"e","kty","n"}` in that order, no whitespace).
    public var thumbprint: String {
        let canonical = #"{"e":"\#(e)","kty":"\#(kty)","n":"\#(n)"}"#
        return SecretHash.sha256Base64URL(canonical)
    }

    static func strippingLeadingZeros(_ bytes: some DataProtocol) -> Data {
        let data = Data(bytes)
        let trimmed = data.drop(while: { $0 == 0 })
        return trimmed.isEmpty ? Data([0]) : Data(trimmed)
    }
}
