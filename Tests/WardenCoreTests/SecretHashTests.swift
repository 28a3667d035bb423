import Foundation
import Testing
import WardenCore
import WardenWire

@Suite("Secrets and encodings")
struct SecretHashTests {
    @Test func sha256HexKnownVector() {
        #expect(
            SecretHash.sha256Hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test func verifyComparesHashes() {
        let hash = SecretHash.sha256Hex("s3cret")
        #expect(SecretHash.verify("s3cret", againstHex: hash))
        #expect(!SecretHash.verify("s3cret!", againstHex: hash))
        #expect(!SecretHash.verify("s3cret", againstHex: String(hash.dropLast())))
    }

    @Test func pkceS256AppendixBVector() {
        // RFC 7636 Appendix B.
        #expect(
            SecretHash.sha256Base64URL("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")
                == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
    }

    @Test func randomTokensCarryAtLeast128Bits() {
        let tokens = (0..<100).map { _ in RandomToken.make() }
        #expect(Set(tokens).count == 100)
        #expect(tokens.allSatisfy { Base64URL.decode($0)?.count == 32 })
        #expect(RandomToken.identifier(prefix: "cred_").hasPrefix("cred_"))
    }

    @Test(arguments: [("", Data()), ("AQ", Data([1])), ("_-8", Data([0xFF, 0xEF]))])
    func base64URLRoundTrip(text: String, data: Data) {
        #expect(Base64URL.encode(data) == text)
        #expect(Base64URL.decode(text) == data)
    }

    @Test func base64URLRejectsGarbage() {
        #expect(Base64URL.decode("a") == nil)
        #expect(Base64URL.decode("a*b=") == nil)
    }
}
