import Foundation
import WardenCore
import WardenWire

/// The X.509 `SubjectPublicKeyInfo` (RFC 5280 §4.1.2.7) of a public JWK, DER-encoded, and its PEM form
/// (RFC 7468 §13): what `/api/v2/keys/signing` shows as `cert` (SPEC §2). RSA (RFC 3279 §2.3.1), P-256
/// (RFC 5480 §2) and Ed25519 (RFC 8410 §4).
enum SubjectPublicKeyInfo {
    enum Failure: Error {
        case unsupportedKey
    }

    static func der(of jwk: JWK) throws -> Data {
        switch (jwk.kty, jwk.crv) {
        case ("RSA", _):
            guard let n = jwk.n.flatMap(Base64URL.decode), let e = jwk.e.flatMap(Base64URL.decode) else {
                throw Failure.unsupportedKey
            }
            let rsaPublicKey = sequence(integer(n) + integer(e))
            return sequence(sequence(rsaEncryption + [0x05, 0x00]) + bitString(rsaPublicKey))
        case ("EC", "P-256"):
            guard let x = jwk.x.flatMap(Base64URL.decode), let y = jwk.y.flatMap(Base64URL.decode) else {
                throw Failure.unsupportedKey
            }
            return sequence(sequence(ecPublicKey + prime256v1) + bitString(Data([0x04]) + x + y))
        case ("OKP", "Ed25519"):
            guard let x = jwk.x.flatMap(Base64URL.decode) else { throw Failure.unsupportedKey }
            return sequence(sequence(ed25519) + bitString(x))
        default:
            throw Failure.unsupportedKey
        }
    }

    /// `-----BEGIN PUBLIC KEY-----` with the base64 body in lines of 64 characters.
    static func pem(_ der: Data) -> String {
        "-----BEGIN PUBLIC KEY-----\n"
            + der.base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
            + "\n-----END PUBLIC KEY-----\n"
    }

    /// Object identifiers, tag and length included: 1.2.840.113549.1.1.1, 1.2.840.10045.2.1,
    /// 1.2.840.10045.3.1.7, 1.3.101.112.
    private static let rsaEncryption = Data([0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x01])
    private static let ecPublicKey = Data([0x06, 0x07, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01])
    private static let prime256v1 = Data([0x06, 0x08, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07])
    private static let ed25519 = Data([0x06, 0x03, 0x2B, 0x65, 0x70])

    private static func sequence(_ content: Data) -> Data { element(0x30, content) }

    private static func bitString(_ content: Data) -> Data { element(0x03, Data([0x00]) + content) }

    /// A non-negative INTEGER from unsigned big-endian bytes.
    private static func integer(_ bytes: Data) -> Data {
        var content = Data(bytes.drop { $0 == 0 })
        if content.isEmpty || content.first! & 0x80 != 0 { content.insert(0x00, at: 0) }
        return element(0x02, content)
    }

    private static func element(_ tag: UInt8, _ content: Data) -> Data {
        var length = Data()
        if content.count < 0x80 {
            length.append(UInt8(content.count))
        } else {
            var count = content.count
            var bytes: [UInt8] = []
            while count > 0 {
                bytes.insert(UInt8(count & 0xFF), at: 0)
                count >>= 8
            }
            length.append(0x80 | UInt8(bytes.count))
            length.append(contentsOf: bytes)
        }
        return Data([tag]) + length + content
    }
}
