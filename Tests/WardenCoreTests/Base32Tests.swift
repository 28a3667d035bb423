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

    @Test(arguments: [
        ("", ""), ("f", "MY"), ("fo", "MZXQ"), ("foo", "MZXW6"), ("foob", "MZXW6YQ"), ("fooba", "MZXW6YTB"),
        ("foobar", "MZXW6YTBOI"),
    ])
    func decodesRFC4648Vectors(expected: String, input: String) {
        #expect(Base32.decode(input) == Array(expected.utf8))
        #expect(Base32.decode(input.lowercased() + "======") == Array(expected.utf8), "lower case and padding")
    }

    @Test func refusesCharactersOutsideTheAlphabet() {
        #expect(Base32.decode("MZXW1") == nil)
        #expect(Base32.decode("MZ-XW") == nil)
    }

    @Test func twentyBytesMakeThirtyTwoCharacters() {
        #expect(Base32.encode([UInt8](repeating: 0xFF, count: 20)) == String(repeating: "7", count: 32))
    }
}
