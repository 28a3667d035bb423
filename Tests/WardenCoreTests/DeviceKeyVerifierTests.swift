import Crypto
import CryptoExtras
import Foundation
import Testing
import WardenCore
import WardenWire

/// `JWSVerifier(rsaModulus:exponent:)`: device keys arrive as JWK `n`/`e` (SPEC §7.1), sometimes with a leading
/// zero byte.
@Suite("RSA keys from JWK members")
struct DeviceKeyVerifierTests {
    static let key = try! _RSA.Signing.PrivateKey(keySize: .bits2048)

    static func jws(_ key: _RSA.Signing.PrivateKey) throws -> CompactJWS {
        let input = Base64URL.encode(Data(#"{"alg":"RS256"}"#.utf8)) + "." + Base64URL.encode(Data("{}".utf8))
        let signature = try key.signature(for: SHA256.hash(data: Data(input.utf8)), padding: .insecurePKCS1v1_5)
        return try CompactJWS(parsing: input + "." + Base64URL.encode(signature.rawRepresentation))
    }

    @Test func withOrWithoutALeadingZeroTheKeyChecksItsSignatures() throws {
        let primitives = try Self.key.publicKey.getKeyPrimitives()
        let plain = try JWSVerifier(
            rsaModulus: Base64URL.encode(primitives.modulus), exponent: Base64URL.encode(primitives.publicExponent))
        let padded = try JWSVerifier(
            rsaModulus: Base64URL.encode([0] + primitives.modulus),
            exponent: Base64URL.encode([0] + primitives.publicExponent))
        let signed = try Self.jws(Self.key)
        #expect(signed.isSigned(by: plain))
        #expect(signed.isSigned(by: padded))
        #expect(!(try Self.jws(try _RSA.Signing.PrivateKey(keySize: .bits2048))).isSigned(by: plain))
    }

    @Test func shortOrMalformedKeysAreRefused() throws {
        let small = try _RSA.Signing.PrivateKey(unsafeKeySize: .init(bitCount: 1024)).publicKey.getKeyPrimitives()
        #expect(throws: JWSError.malformedKey) {
            try JWSVerifier(rsaModulus: Base64URL.encode(small.modulus), exponent: "AQAB")
        }
        #expect(throws: JWSError.malformedKey) { try JWSVerifier(rsaModulus: "***", exponent: "AQAB") }
        #expect(throws: JWSError.malformedKey) { try JWSVerifier(rsaModulus: "AQAB", exponent: "") }
    }
}
