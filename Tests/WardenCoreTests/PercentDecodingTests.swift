import Testing
import WardenCore
import WardenWire

/// RFC 3986 §2.1 percent-decoding, with the form rule (WHATWG URL §5.1) that `+` is a space.
@Suite("Percent-decoding")
struct PercentDecodingTests {
    @Test(
        arguments: [
            ("a%20b+c", true, "a b c"), ("a%20b+c", false, "a b+c"), ("%C3%A9t%c3%a9", true, "été"),
            ("plain", true, "plain"), ("", false, ""), ("%2B%2b", true, "++"),
        ])
    func decodes(input: String, plusIsSpace: Bool, expected: String) {
        #expect(PercentDecoding.decode(input[...], plusIsSpace: plusIsSpace) == expected)
    }

    @Test(
        "A malformed escape or bytes that are not UTF-8 decode to nil",
        arguments: ["%", "%4", "%G0", "a%zz", "%FF", "%C3"])
    func refuses(input: String) {
        #expect(PercentDecoding.decode(input[...], plusIsSpace: true) == nil)
    }

    @Test func hexDigits() {
        #expect("0aF9".utf8.map(\.hexDigitValue) == [0, 10, 15, 9])
        #expect("g/:@G".utf8.allSatisfy { $0.hexDigitValue == nil })
    }
}
