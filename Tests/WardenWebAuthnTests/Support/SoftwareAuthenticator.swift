import Crypto
import CryptoExtras
import Foundation
import WardenWebAuthn

/// A software authenticator for the tests: it holds a credential key of one of the three algorithms, writes its
/// COSE_Key (WebAuthn §6.5.1.1), authenticator data (§6.1) and attestation objects (§6.5.4), and signs.
struct SoftwareAuthenticator: Sendable {
    enum Key: Sendable {
        case p256(P256.Signing.PrivateKey)
        case ed25519(Curve25519.Signing.PrivateKey)
        case rsa(_RSA.Signing.PrivateKey)
    }

    /// One RSA key for every test: generating a 2,048-bit key takes a while.
    static let rsaKey = try! _RSA.Signing.PrivateKey(keySize: .bits2048)

    static func make(_ algorithm: COSEAlgorithm) -> SoftwareAuthenticator {
        switch algorithm {
        case .es256: SoftwareAuthenticator(key: .p256(P256.Signing.PrivateKey()))
        case .eddsa: SoftwareAuthenticator(key: .ed25519(Curve25519.Signing.PrivateKey()))
        default: SoftwareAuthenticator(key: .rsa(rsaKey))
        }
    }

    let key: Key
    var credentialID = randomBytes(32)
    var aaguid = randomBytes(16)

    var algorithm: COSEAlgorithm {
        switch key {
        case .p256: .es256
        case .ed25519: .eddsa
        case .rsa: .rs256
        }
    }

    /// The credential public key as a COSE_Key map (RFC 9053 §7, RFC 8230 §4).
    var coseKey: [CBORMapKey: CBORValue] {
        switch key {
        case .p256(let key):
            let point = Array(key.publicKey.x963Representation)
            return [
                1: .integer(2), 3: .integer(-7), -1: .integer(1), -2: .bytes(Array(point[1...32])),
                -3: .bytes(Array(point[33...64])),
            ]
        case .ed25519(let key):
            return [
                1: .integer(1), 3: .integer(-8), -1: .integer(6), -2: .bytes(Array(key.publicKey.rawRepresentation)),
            ]
        case .rsa(let key):
            let primitives = try! key.publicKey.getKeyPrimitives()
            return [
                1: .integer(3), 3: .integer(-257), -1: .bytes(Array(primitives.modulus)),
                -2: .bytes(Array(primitives.publicExponent)),
            ]
        }
    }

    /// A signature over `data` in the formats of WebAuthn §6.5.5.
    func sign(_ data: [UInt8]) -> [UInt8] {
        switch key {
        case .p256(let key): Array(try! key.signature(for: data).derRepresentation)
        case .ed25519(let key): Array(try! key.signature(for: data))
        case .rsa(let key): Array(try! key.signature(for: data, padding: .insecurePKCS1v1_5).rawRepresentation)
        }
    }

    /// Authenticator data for `rpID`; with `attested`, the attested credential data (and the AT flag) follow.
    func authenticatorData(
        rpID: String, flags: AuthenticatorData.Flags, signCount: UInt32, attested: Bool,
        coseKey: [CBORMapKey: CBORValue]? = nil
    ) -> [UInt8] {
        var bytes = Array(SHA256.hash(data: Array(rpID.utf8)))
        bytes.append((attested ? flags.union(.attestedCredentialData) : flags).rawValue)
        bytes += CBOREncoder.bigEndian(UInt64(signCount), width: 4)
        if attested {
            bytes += aaguid + CBOREncoder.bigEndian(UInt64(credentialID.count), width: 2) + credentialID
            bytes += CBOREncoder.encode(.map(coseKey ?? self.coseKey))
        }
        return bytes
    }
}
