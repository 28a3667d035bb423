public import Crypto
public import CryptoExtras
import Foundation

/// A credential public key in COSE_Key form (WebAuthn Level 3 §6.5.1.1, RFC 9052 §7, RFC 9053 §7, RFC 8230 §4):
/// an ES256 key on P-256, an EdDSA key on Ed25519 or an RS256 key of at least 2,048 bits, with the swift-crypto key
/// it stands for.
///
/// ``bytes`` is the storable form: the COSE_Key exactly as the authenticator encoded it (SPEC §17's `public_key`
/// shows it in base64), which ``init(bytes:)`` reads back. Two keys are equal when their bytes are.
public struct COSEKey: Sendable, Hashable {
    /// The swift-crypto public key.
    public enum PublicKey: Sendable {
        case p256(P256.Signing.PublicKey)
        case ed25519(Curve25519.Signing.PublicKey)
        case rsa(_RSA.Signing.PublicKey)
    }

    /// The COSE_Key as encoded.
    public let bytes: [UInt8]
    /// The key, for swift-crypto.
    public let publicKey: PublicKey

    /// The key's algorithm (its `alg`, label 3): each supported key type has one.
    public var algorithm: COSEAlgorithm {
        switch publicKey {
        case .p256: .es256
        case .ed25519: .eddsa
        case .rsa: .rs256
        }
    }

    /// Reads a stored COSE_Key.
    public init(bytes: [UInt8]) throws(WebAuthnError) {
        let value = try WebAuthnError.cbor("The credential public key") { () throws(CBORError) in
            try CBORDecoder.decode(bytes)
        }
        try self.init(value, bytes: bytes)
    }

    /// Reads the COSE_Key `value`, decoded from `bytes`. The key must name its algorithm (§6.5.1.1), one of
    /// ``COSEAlgorithm/supported``, with the key type (label 1) and curve (label −1) that algorithm requires.
    init(_ value: CBORValue, bytes: [UInt8]) throws(WebAuthnError) {
        guard let map = value.map, let keyType = map[1]?.integer else {
            throw WebAuthnError(
                code: .malformed, message: "The credential public key is not a COSE_Key map with a key type.")
        }
        guard let label = map[3]?.integer.flatMap({ Int(exactly: $0) }) else {
            throw WebAuthnError(code: .algorithm, message: "The credential public key names no algorithm.")
        }
        let mismatch = WebAuthnError(
            code: .algorithm, message: "The credential public key's type or curve does not fit its algorithm.")
        let malformed = WebAuthnError(
            code: .malformed, message: "The credential public key's parameters do not form a valid key.")
        switch COSEAlgorithm(rawValue: label) {
        case .es256:
            // EC2 (kty 2) on P-256 (crv 1) with 32-byte x (−2) and y (−3), RFC 9053 §7.1.1.
            guard keyType == 2, map[-1]?.integer == 1 else { throw mismatch }
            guard let x = map[-2]?.bytes, let y = map[-3]?.bytes, x.count == 32, y.count == 32,
                let key = try? P256.Signing.PublicKey(x963Representation: [0x04] + x + y)
            else { throw malformed }
            publicKey = .p256(key)
        case .eddsa:
            // OKP (kty 1) on Ed25519 (crv 6) with the 32-byte public key in x (−2), RFC 9053 §7.2.
            guard keyType == 1, map[-1]?.integer == 6 else { throw mismatch }
            guard let x = map[-2]?.bytes, x.count == 32,
                let key = try? Curve25519.Signing.PublicKey(rawRepresentation: x)
            else { throw malformed }
            publicKey = .ed25519(key)
        case .rs256:
            // RSA (kty 3) with modulus n (−1) and exponent e (−2), RFC 8230 §4; swift-crypto refuses under 2,048 bits.
            guard keyType == 3 else { throw mismatch }
            guard let n = map[-1]?.bytes, let e = map[-2]?.bytes, let key = try? _RSA.Signing.PublicKey(n: n, e: e)
            else { throw malformed }
            publicKey = .rsa(key)
        default:
            throw WebAuthnError(
                code: .algorithm, message: "The credential public key's algorithm is not ES256, EdDSA or RS256.")
        }
        self.bytes = bytes
    }

    /// Whether `signature` is this key's signature over `data`, in the formats of WebAuthn §6.5.5: an ASN.1 DER
    /// `Ecdsa-Sig-Value` for ES256, the 64 bytes of RFC 8032 for EdDSA, the PKCS#1 v1.5 signature for RS256.
    public func isValidSignature(_ signature: [UInt8], for data: [UInt8]) -> Bool {
        switch publicKey {
        case .p256(let key):
            guard let signature = try? P256.Signing.ECDSASignature(derRepresentation: signature) else { return false }
            return key.isValidSignature(signature, for: data)
        case .ed25519(let key):
            return key.isValidSignature(signature, for: data)
        case .rsa(let key):
            let signature = _RSA.Signing.RSASignature(rawRepresentation: signature)
            return key.isValidSignature(signature, for: data, padding: .insecurePKCS1v1_5)
        }
    }

    public static func == (lhs: COSEKey, rhs: COSEKey) -> Bool { lhs.bytes == rhs.bytes }

    public func hash(into hasher: inout Hasher) { hasher.combine(bytes) }
}
