import Testing
import WardenCore
import WardenWire

/// RFC 4648 §10 test vectors, without the padding TOTP secrets omit.
@Suite("Base32")
struct Base32Tests {
    @Test(arguments: [
        ("", ""), ("f", "MY"), ("fo", "MZXQ"), ("foo", "MZXW6"), ("foob", "MZXW6YQ"), ("fooba", "MZXW6YTB"),
        ("foobar", "MZXW6YTBOI"),
    ])
    func rfc4648Vectors(input: String, expected: String) {
        #expect(Base32.encode(Array(input.utf8)) == expected)
    }

    @Test func twentyBytesMakeThirtyTwoCharacters() {
        #expect(Base32.encode([UInt8](repeating: 0xFF, count: 20)) == String(repeating: "7", count: 32))
    }
}
