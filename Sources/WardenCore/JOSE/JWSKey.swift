public import Crypto
import CryptoExtras
public import Foundation
public import WardenWire

/// A private signing key with its public JWK, ready to produce JWS compact serializations (RFC 7515 §7.1).
///
/// Signing uses swift-crypto directly on an immutable value, so any number of requests sign in parallel
/// (jwt-kit's key collection is an actor, which would serialize every signature on one executor).
public struct JWSKey: Sendable {
    enum Material: Sendable {
        case rsa(_RSA.Signing.PrivateKey)
        case ec(P256.Signing.PrivateKey)
        case ed(Curve25519.Signing.PrivateKey)
    }

    public let kid: String
    public let alg: SigningAlgorithm
    let material: Material
    /// The public key as published in the JWKS.
    public let publicJWK: JWK
    /// The public half, for verifying tokens this key signed.
    public let verifier: JWSVerifier
    /// Encoded protected headers for the two token types Warden issues, computed once per key.
    private let accessTokenHeader: String
    private let idTokenHeader: String
    /// SHA-256 of the private key: the input of ``derivedKey(purpose:)``.
    private let secretMaterial: SymmetricKey

    /// A symmetric key bound to this signing key and to `purpose` (HKDF-SHA256, RFC 5869): for MACs over
    /// values only Warden reads back, such as device transaction tokens. It lives and dies with the signing
    /// key, so rotation and revocation apply to it too.
    public func derivedKey(purpose: String) -> SymmetricKey {
        HKDF<SHA256>.deriveKey(inputKeyMaterial: secretMaterial, info: Data(purpose.utf8), outputByteCount: 32)
    }

    /// Loads a stored key.
    public init(record: SigningKeyRecord) throws {
        try self.init(kid: record.kid, alg: record.alg, privateKey: record.privateKey)
    }

    init(kid: String, alg: SigningAlgorithm, privateKey: String) throws {
        self.kid = kid
        self.alg = alg
        accessTokenHeader = Self.encodeHeader(alg: alg, kid: kid, type: "at+jwt")
        idTokenHeader = Self.encodeHeader(alg: alg, kid: kid, type: "JWT")
        secretMaterial = SymmetricKey(data: SHA256.hash(data: Data(privateKey.utf8)))
        switch alg {
        case .rs256, .ps256:
            let key = try _RSA.Signing.PrivateKey(pemRepresentation: privateKey)
            material = .rsa(key)
            verifier = .rsa(key.publicKey, pss: alg == .ps256)
            let primitives = try key.publicKey.getKeyPrimitives()
            publicJWK = JWK(
                kty: "RSA", kid: kid, use: "sig", alg: alg.rawValue,
                n: Base64URL.encode(primitives.modulus), e: Base64URL.encode(primitives.publicExponent))
        case .es256:
            let key = try P256.Signing.PrivateKey(pemRepresentation: privateKey)
            material = .ec(key)
            verifier = .ec(key.publicKey)
            let point = key.publicKey.x963Representation
            publicJWK = JWK(
                kty: "EC", kid: kid, use: "sig", alg: alg.rawValue, crv: "P-256",
                x: Base64URL.encode(point[1..<33]), y: Base64URL.encode(point[33..<65]))
        case .edDSA:
            guard let raw = Data(base64Encoded: privateKey) else { throw JWSError.malformedKey }
            let key = try Curve25519.Signing.PrivateKey(rawRepresentation: raw)
            material = .ed(key)
            verifier = .ed(key.publicKey)
            publicJWK = JWK(
                kty: "OKP", kid: kid, use: "sig", alg: alg.rawValue, crv: "Ed25519",
                x: Base64URL.encode(key.publicKey.rawRepresentation))
        }
    }

    /// Makes a new random key for `alg` as a storable record (RSA keys are 2048-bit).
    public static func generate(alg: SigningAlgorithm, now: Date) throws -> SigningKeyRecord {
        let pem: String
        switch alg {
        case .rs256, .ps256: pem = try _RSA.Signing.PrivateKey(keySize: .bits2048).pkcs8PEMRepresentation
        case .es256: pem = P256.Signing.PrivateKey().pemRepresentation
        case .edDSA: pem = Curve25519.Signing.PrivateKey().rawRepresentation.base64EncodedString()
        }
        return SigningKeyRecord(
            kid: RandomToken.make(bytes: 16), alg: alg, privateKey: pem, current: true, createdAt: now,
            currentSince: now, revokedAt: nil)
    }

    /// The encoded protected header `{"alg","typ","kid"}`.
    public func encodedHeader(type: String) -> String {
        switch type {
        case "at+jwt": accessTokenHeader
        case "JWT": idTokenHeader
        default: Self.encodeHeader(alg: alg, kid: kid, type: type)
        }
    }

    private static func encodeHeader(alg: SigningAlgorithm, kid: String, type: String) -> String {
        Base64URL.encode(
            JSONValue.serializedObject([("alg", .string(alg.rawValue)), ("typ", .string(type)), ("kid", .string(kid))])
                .utf8)
    }

    /// Signs `payload` (JSON text) under a pre-encoded header and returns the compact JWS.
    public func sign(payload: String, encodedHeader: String) throws -> String {
        let signingInput = encodedHeader + "." + Base64URL.encode(payload.utf8)
        let signature = try signature(for: Data(signingInput.utf8))
        return signingInput + "." + Base64URL.encode(signature)
    }

    /// Signs `payload` with a header of type `type`.
    public func sign(payload: String, type: String = "JWT") throws -> String {
        try sign(payload: payload, encodedHeader: encodedHeader(type: type))
    }

    func signature(for input: Data) throws -> Data {
        switch material {
        case .rsa(let key):
            let padding: _RSA.Signing.Padding = alg == .ps256 ? .PSS : .insecurePKCS1v1_5
            return try key.signature(for: SHA256.hash(data: input), padding: padding).rawRepresentation
        case .ec(let key):
            return try key.signature(for: SHA256.hash(data: input)).rawRepresentation
        case .ed(let key):
            return try key.signature(for: input)
        }
    }
}
