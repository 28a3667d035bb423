import Foundation
import JWTKit
import Testing
import WardenAuthenticator

@Suite struct DeviceKeyTests {
    @Test func jwkShape() throws {
        let jwk = sharedKey.publicJWK
        #expect(sharedKey.keySizeInBits == 2048)
        #expect(jwk.kty == "RSA")
        #expect(jwk.use == "sig")
        #expect(jwk.alg == "RS256")
        #expect(jwk.e == "AQAB")
        let modulus = try #require(jwk.modulus)
        #expect(modulus.count == 256)
        #expect(modulus.first != 0)
        #expect(!jwk.n.contains("=") && !jwk.n.contains("+") && !jwk.n.contains("/"))
        let object = try #require(jsonObject(try JSONEncoder().encode(jwk)))
        #expect(Set(object.keys) == ["kty", "use", "alg", "n", "e"])
    }

    @Test func leadingZeroBytesAreStripped() {
        let modulus: [UInt8] = [0x00, 0x00, 0xC1, 0x02, 0x03]
        let jwk = PublicJWK(modulus: modulus, exponent: [0x00, 0x01, 0x00, 0x01])
        #expect(jwk.modulus == Data([0xC1, 0x02, 0x03]))
        #expect(jwk.e == "AQAB")
        #expect(jwk.n == "wQID")
    }

    @Test func jwtKitReadsTheJWK() throws {
        let jwk = try JSONDecoder().decode(JWK.self, from: JSONEncoder().encode(sharedKey.publicJWK))
        #expect(jwk.keyType == .rsa)
        #expect(jwk.algorithm == .rs256)
        let key = try Insecure.RSA.PublicKey(
            modulus: try #require(jwk.modulus), exponent: try #require(jwk.exponent))
        let primitives = try key.getKeyPrimitives()
        #expect(primitives.modulus == sharedKey.publicJWK.modulus)
    }

    @Test func pemRoundTrip() throws {
        let loaded = try DeviceKey(pemRepresentation: sharedKey.pemRepresentation)
        #expect(loaded.publicJWK == sharedKey.publicJWK)
        let fromDER = try DeviceKey(derRepresentation: sharedKey.derRepresentation)
        #expect(fromDER.publicJWK == sharedKey.publicJWK)
        let message = Data("hello".utf8)
        let signature = try loaded.signRS256(message)
        #expect(signature.count == 256)
        #expect(sharedKey.isValidRS256Signature(signature, for: message))
        #expect(!sharedKey.isValidRS256Signature(signature, for: Data("other".utf8)))
    }

    @Test func thumbprintIsStable() {
        #expect(sharedKey.publicJWK.thumbprint == sharedKey.publicJWK.thumbprint)
        #expect(sharedKey.publicJWK.thumbprint.count == 43)
    }
}
