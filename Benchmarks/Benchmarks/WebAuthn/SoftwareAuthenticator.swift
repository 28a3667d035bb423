import Crypto
import CryptoExtras
import WardenWebAuthn

/// An authenticator in software, as the benchmarks' ceremonies need one (WebAuthn Level 3 §6): one credential key
/// of an algorithm Warden verifies (SPEC §17: ES256, RS256 with PKCS#1 v1.5, EdDSA), its COSE_Key (§6.5.1.1), the
/// authenticator data of a registration (§7.1, with the attested credential data of §6.5.1) or of a sign-in (§7.2),
/// and signatures in the formats of §6.5.5.
struct SoftwareAuthenticator: Sendable {
    enum Key: Sendable {
        case p256(P256.Signing.PrivateKey)
        case rsa(_RSA.Signing.PrivateKey)
        case ed25519(Curve25519.Signing.PrivateKey)
    }

    let key: Key
    /// 32 bytes, as a platform authenticator's passkey IDs often are.
    let credentialID: [UInt8] = (0..<32).map { _ in UInt8.random(in: 0...255) }
    /// All zeros: the AAGUID of an anonymised `none` attestation (§6.5.1).
    let aaguid = [UInt8](repeating: 0, count: 16)

    /// A fresh key of `algorithm`: P-256, RSA-2048 or Ed25519.
    init(_ algorithm: COSEAlgorithm) throws {
        switch algorithm {
        case .es256: key = .p256(P256.Signing.PrivateKey())
        case .rs256: key = .rsa(try _RSA.Signing.PrivateKey(keySize: .bits2048))
        case .eddsa: key = .ed25519(Curve25519.Signing.PrivateKey())
        default: preconditionFailure("no software key for COSE algorithm \(algorithm)")
        }
    }

    /// The credential public key as a COSE_Key (RFC 9053 §7, RFC 8230 §4), encoded.
    var coseKey: [UInt8] {
        let map: [CBORMapKey: CBORValue]
        switch key {
        case .p256(let key):
            let point = Array(key.publicKey.x963Representation)
            map = [
                1: .integer(2), 3: .integer(-7), -1: .integer(1), -2: .bytes(Array(point[1...32])),
                -3: .bytes(Array(point[33...64])),
            ]
        case .rsa(let key):
            let primitives = try! key.publicKey.getKeyPrimitives()
            map = [
                1: .integer(3), 3: .integer(-257), -1: .bytes(Array(primitives.modulus)),
                -2: .bytes(Array(primitives.publicExponent)),
            ]
        case .ed25519(let key):
            map = [
                1: .integer(1), 3: .integer(-8), -1: .integer(6), -2: .bytes(Array(key.publicKey.rawRepresentation)),
            ]
        }
        return CBOREncoder.encode(.map(map))
    }

    /// Authenticator data (§6.1) for `rpID` with UP and UV set: at registration (`attested`) AT is set too and the
    /// attested credential data (AAGUID, credential ID length and ID, COSE_Key) follows the counter.
    func authenticatorData(rpID: String, signCount: UInt32, attested: Bool) -> [UInt8] {
        var flags: AuthenticatorData.Flags = [.userPresent, .userVerified]
        if attested { flags.insert(.attestedCredentialData) }
        var bytes = Array(SHA256.hash(data: Array(rpID.utf8)))
        bytes.append(flags.rawValue)
        bytes += CBOREncoder.bigEndian(UInt64(signCount), width: 4)
        if attested {
            bytes += aaguid + CBOREncoder.bigEndian(UInt64(credentialID.count), width: 2) + credentialID + coseKey
        }
        return bytes
    }

    /// The signature over `data` (§6.5.5): ASN.1 DER for ES256, PKCS#1 v1.5 for RS256, the 64 bytes of RFC 8032 for
    /// EdDSA.
    func sign(_ data: [UInt8]) throws -> [UInt8] {
        switch key {
        case .p256(let key): Array(try key.signature(for: data).derRepresentation)
        case .rsa(let key): Array(try key.signature(for: data, padding: .insecurePKCS1v1_5).rawRepresentation)
        case .ed25519(let key): Array(try key.signature(for: data))
        }
    }
}
