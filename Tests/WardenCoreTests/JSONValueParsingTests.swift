import Foundation
import Testing
import WardenWire

/// `JSONValue(parsing:)` against RFC 8259, and against Foundation's `JSONDecoder`, which it replaces where Warden
/// reads free-form JSON.
@Suite("JSONValue parsing (RFC 8259)")
struct JSONValueParsingTests {
    @Test(
        "every kind of value (RFC 8259 §3-§7)",
        arguments: [
            ("null", JSONValue.null), ("true", true), ("false", false), ("0", 0), ("-0", .number(-0.0)),
            ("42", 42), ("-17", -17), ("3.25", 3.25), ("-1.5e3", -1500), ("1E2", 100), ("2e-2", 0.02),
            ("\"\"", ""), ("\"plain\"", "plain"), ("[]", []), ("{}", [:]), ("[1,\"a\",null]", [1, "a", nil]),
            (
                #"{"a":{"b":[true,{"c":"d"}]},"e":[]}"#,
                ["a": ["b": [true, ["c": "d"]]], "e": []]
            ),
        ] as [(String, JSONValue)])
    func values(text: String, expected: JSONValue) throws {
        #expect(try JSONValue(parsing: text) == expected)
        #expect(try JSONValue(parsing: Array(text.utf8)) == expected)
    }

    @Test("white space around values and a UTF-8 byte order mark are skipped (§2, §8.1)")
    func whitespace() throws {
        #expect(try JSONValue(parsing: " \t\r\n{ \"a\" :\n[ 1 , 2 ] }\n ") == ["a": [1, 2]])
        #expect(try JSONValue(parsing: [0xEF, 0xBB, 0xBF] + Array("[true]".utf8)) == [true])
    }

    @Test("escapes, including a surrogate pair, become the characters they name (§7)")
    func escapes() throws {
        let text = #""q\"b\\s\/b\bf\fn\nr\rt\t\u00e9\u20AC\ud83d\ude00""#
        #expect(try JSONValue(parsing: text) == .string("q\"b\\s/b\u{8}f\u{C}n\nr\rt\té€😀"))
        #expect(try JSONValue(parsing: "\"é€😀 raw\"") == "é€😀 raw")
    }

    @Test("numbers are the nearest Double, also past 15 digits (§6)")
    func numbers() throws {
        for text in ["0.1", "123456789012345678901234", "-9007199254740993", "1.7976931348623157e308", "5e-324"] {
            #expect(try JSONValue(parsing: text) == .number(Double(text)!), "\(text)")
        }
        #expect(try JSONValue(parsing: "999999999999999") == .number(999_999_999_999_999))
    }

    @Test("of repeated member names, the last wins")
    func repeatedNames() throws {
        #expect(try JSONValue(parsing: #"{"a":1,"a":2}"#) == ["a": 2])
    }

    @Test(
        "text that is not JSON is refused with the offset of the fault",
        arguments: [
            ("", 0), ("   ", 3), ("nul", 0), ("truth", 0), ("[1,]", 3), ("[1 2]", 3), ("{\"a\" 1}", 5),
            ("{\"a\":1,}", 7), ("{a:1}", 1), ("01", 1), ("1.", 0), (".5", 0), ("-", 0), ("1e", 0), ("+1", 0),
            ("1e400", 0), ("\"abc", 0), ("\"a\u{1}b\"", 2), ("\"\\x\"", 1), ("\"\\u12\"", 3), ("\"\\ud800\"", 1),
            ("\"\\udc00\"", 1), ("\"\\ud800\\u0041\"", 1), ("[1] x", 4), ("{\"a\":1}}", 7), ("NaN", 0),
        ] as [(String, Int)])
    func refused(text: String, offset: Int) {
        let error = #expect(throws: JSONParseError.self, "\(text)") { try JSONValue(parsing: text) }
        #expect(error?.offset == offset, "\(text): \(String(describing: error))")
        // JSONDecoder lets a trailing comma pass; RFC 8259 does not, nor does the reference platform's JSON.parse.
        guard !text.contains(",]"), !text.contains(",}") else { return }
        #expect(throws: (any Error).self, "JSONDecoder refuses \(text) too") {
            try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
        }
    }

    /// The message may reach the sender of a request: it quotes no more of the text than one printable byte.
    @Test("an error message stays short and shows an unprintable byte in hex")
    func messages() {
        let long = #expect(throws: JSONParseError.self) {
            try JSONValue(parsing: "1e" + String(repeating: "9", count: 1000))
        }
        #expect(long?.description == "number out of range (at byte 0)")
        let unprintable = #expect(throws: JSONParseError.self) { try JSONValue(parsing: [0x5B, 0xC3, 0xA9, 0x5D]) }
        #expect(unprintable?.description == "unexpected byte 0xc3 (at byte 1)")
    }

    @Test("a string of invalid UTF-8 is refused")
    func invalidUTF8() {
        #expect(throws: JSONParseError.self) { try JSONValue(parsing: [0x22, 0xC3, 0x28, 0x22]) }
        #expect(throws: JSONParseError.self) { try JSONValue(parsing: [0x22, 0x5C, 0x6E, 0xFF, 0x22]) }
    }

    @Test("nesting: 512 levels are read, 513 refused")
    func depth() throws {
        let deepest = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        #expect(throws: Never.self) { try JSONValue(parsing: deepest) }
        let tooDeep =
            String(repeating: "{\"a\":", count: 256) + String(repeating: "[", count: 257)
            + String(repeating: "]", count: 257) + String(repeating: "}", count: 256)
        // 256 objects of 5 bytes, then 256 arrays: the 513th level opens at byte 1,536.
        let error = #expect(throws: JSONParseError.self) { try JSONValue(parsing: tooDeep) }
        #expect(error?.offset == 1_536)
        #expect(error?.reason == "nested deeper than 512")
    }

    @Test("a collection without contiguous storage reads the same")
    func noncontiguous() throws {
        let text = #"{"k":["v",1.5]}"#
        #expect(try JSONValue(parsing: text.utf8.lazy.map { $0 }) == ["k": ["v", 1.5]])
    }

    @Test("agrees with JSONDecoder on 2,000 random values, written by JSONValue and by JSONEncoder")
    func agreesWithJSONDecoder() throws {
        // A failure names its text, so it can be replayed whatever the generator gave.
        var random = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let value = JSONValue.random(depth: 4, using: &random)
            for text in [value.serialized, String(decoding: try JSONEncoder().encode(value), as: UTF8.self)] {
                let parsed = try JSONValue(parsing: text)
                #expect(parsed == (try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))), "\(text)")
                #expect(parsed == value, "\(text)")
            }
        }
    }
}

extension JSONValue {
    /// A value of up to `depth` levels: strings with quotes, backslashes, control characters, U+2028 and
    /// characters outside the BMP; whole and fractional numbers of every size.
    fileprivate static func random(depth: Int, using generator: inout some RandomNumberGenerator) -> JSONValue {
        switch Int.random(in: depth > 0 ? 0...5 : 0...3, using: &generator) {
        case 0: return Bool.random(using: &generator) ? .null : .bool(Bool.random(using: &generator))
        case 1:
            return Bool.random(using: &generator)
                ? .number(Double(Int64.random(in: -(1 << 53)...(1 << 53), using: &generator)))
                : .number(
                    Double(
                        sign: Bool.random(using: &generator) ? .minus : .plus,
                        exponent: Int.random(in: -1000...1000, using: &generator),
                        significand: Double.random(in: 1..<2, using: &generator)))
        case 2, 3:
            let alphabet: [Unicode.Scalar] = [
                "a", "Z", "0", " ", "\"", "\\", "/", "\n", "\u{1}", "\u{7F}", "é", "€",
                "\u{2028}", "<", "&", "😀", "𝄞",
            ]
            var text = ""
            for _ in 0..<Int.random(in: 0...12, using: &generator) {
                text.unicodeScalars.append(alphabet.randomElement(using: &generator)!)
            }
            return .string(text)
        case 4:
            return .array(
                (0..<Int.random(in: 0...4, using: &generator)).map { _ in random(depth: depth - 1, using: &generator) })
        default:
            var members: [String: JSONValue] = [:]
            for index in 0..<Int.random(in: 0...4, using: &generator) {
                members["k\(index)\(Bool.random(using: &generator) ? "\u{2028}😀" : "")"] = random(
                    depth: depth - 1, using: &generator)
            }
            return .object(members)
        }
    }
}
