import Crypto
import CryptoExtras
public import Foundation

/// A device's RSA signing key (RSA 2048, RS256 = RSASSA-PKCS1-v1_5 with SHA-256, RFC 7518 §3.3).
///
/// The key signs the device's JWTs: the challenge response (SPEC §7.4), the DPoP proof (SPEC §7.3) and the
/// device-account token (SPEC §7.1). Its public half is enrolled as ``publicJWK``.
public struct DeviceKey: Sendable {
    private let privateKey: _RSA.Signing.PrivateKey

    /// The public key as a JWK (RFC 7517), the SPEC §7.1 `public_key`.
    public let publicJWK: PublicJWK

    /// Generates a new 2048-bit key.
    public static func generate() throws -> DeviceKey {
        try DeviceKey(privateKey: _RSA.Signing.PrivateKey(keySize: .bits2048))
    }

    private init(privateKey: _RSA.Signing.PrivateKey) throws {
        self.privateKey = privateKey
        // BoringSSL returns minimal big-endian integers; PublicJWK strips leading zeros regardless.
        let primitives = try privateKey.publicKey.getKeyPrimitives()
        publicJWK = PublicJWK(modulus: primitives.modulus, exponent: primitives.publicExponent)
    }

    /// Loads a key from PEM (PKCS#1 `RSA PRIVATE KEY` or PKCS#8 `PRIVATE KEY`). Keys under 2048 bits are refused.
    public init(pemRepresentation: String) throws {
        try self.init(privateKey: _RSA.Signing.PrivateKey(pemRepresentation: pemRepresentation))
    }

    /// Loads a key from DER (PKCS#1 or PKCS#8). Keys under 2048 bits are refused.
    public init(derRepresentation: some DataProtocol) throws {
        try self.init(privateKey: _RSA.Signing.PrivateKey(derRepresentation: derRepresentation))
    }

    /// The private key as PKCS#1 PEM. Secret: store it only where the app alone can read it.
    public var pemRepresentation: String { privateKey.pemRepresentation }

    /// The private key as PKCS#1 DER. Secret.
    public var derRepresentation: Data { privateKey.derRepresentation }

    /// The key size in bits.
    public var keySizeInBits: Int { privateKey.keySizeInBits }

    /// The public key as SubjectPublicKeyInfo PEM.
    public var publicKeyPEM: String { privateKey.publicKey.pemRepresentation }

    /// Signs `data` with RSASSA-PKCS1-v1_5 over SHA-256 (the RS256 signature of RFC 7518 §3.3).
    public func signRS256(_ data: some DataProtocol) throws -> Data {
        let digest = SHA256.hash(data: data)
        return try privateKey.signature(for: digest, padding: .insecurePKCS1v1_5).rawRepresentation
    }

    /// Whether `signature` is a valid RS256 signature of `data` under this key's public half.
    public func isValidRS256Signature(_ signature: some DataProtocol, for data: some DataProtocol) -> Bool {
        privateKey.publicKey.isValidSignature(
            _RSA.Signing.RSASignature(rawRepresentation: signature), for: SHA256.hash(data: data),
            padding: .insecurePKCS1v1_5)
    }
}
