/// The JSON text parser of ``JSONValue`` (RFC 8259): how Warden reads free-form JSON — stored metadata and
/// authorization details, JWT headers and payloads, request bodies.
///
/// `JSONDecoder` can only decode a `JSONValue` by trying each type in turn and throwing a `DecodingError` at
/// every miss: a user search spent 17 % of its CPU decoding its users' two metadata columns that way (issue 16).
/// This reads the bytes once. It accepts what `JSONDecoder` accepts from UTF-8 text but a trailing comma, which
/// RFC 8259 does not allow, and rejects the rest: a control character or invalid UTF-8 in a string, an unpaired
/// surrogate escape, a number JSON's grammar does not allow or a `Double` cannot hold, nesting deeper than
/// ``maximumDepth``, text after the value.
extension JSONValue {
    /// The deepest nesting of arrays and objects accepted, `JSONDecoder`'s limit.
    public static let maximumDepth = 512

    /// Parses one JSON text (RFC 8259 §2): a value with optional white space around it, after an optional UTF-8
    /// byte order mark (§8.1). Numbers become `Double`; of repeated member names, the last wins.
    public init(parsing bytes: some Collection<UInt8>) throws(JSONParseError) {
        let parse = { (buffer: UnsafeBufferPointer<UInt8>) in
            Result { () throws(JSONParseError) in try Self.parse(buffer) }
        }
        self = try (bytes.withContiguousStorageIfAvailable(parse) ?? Array(bytes).withUnsafeBufferPointer(parse)).get()
    }

    /// ``init(parsing:)-(Collection<UInt8>)`` of a string's UTF-8.
    public init(parsing text: String) throws(JSONParseError) {
        var text = text
        self = try text.withUTF8 { buffer in Result { () throws(JSONParseError) in try Self.parse(buffer) } }.get()
    }

    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(JSONParseError) -> JSONValue {
        var parser = JSONTextParser(bytes: bytes)
        parser.skipByteOrderMark()
        let value = try parser.value(depth: 0)
        parser.skipWhitespace()
        guard parser.index == bytes.count else { throw parser.failure("unexpected text after the JSON value") }
        return value
    }
}

/// Why a text is not JSON (RFC 8259), and the byte offset where that was found.
public struct JSONParseError: Error, Sendable, Hashable, CustomStringConvertible {
    public let reason: String
    public let offset: Int

    public var description: String { "\(reason) (at byte \(offset))" }
}

/// A cursor over UTF-8 bytes that reads RFC 8259's grammar.
private struct JSONTextParser {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0

    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    private var next: UInt8? { index < bytes.count ? bytes[index] : nil }

    func failure(_ reason: String, at offset: Int? = nil) -> JSONParseError {
        JSONParseError(reason: reason, offset: offset ?? index)
    }

    mutating func skipByteOrderMark() {
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
    }

    /// RFC 8259 §2: space, horizontal tab, line feed, carriage return.
    mutating func skipWhitespace() {
        while let byte = next, byte == .space || byte == .tab || byte == .lineFeed || byte == .carriageReturn {
            index += 1
        }
    }

    /// §3: a value, after white space; `depth` counts the arrays and objects around it.
    mutating func value(depth: Int) throws(JSONParseError) -> JSONValue {
        skipWhitespace()
        guard let byte = next else { throw failure("unexpected end of the JSON text") }
        switch byte {
        case .openBrace: return .object(try object(depth: depth + 1))
        case .openBracket: return .array(try array(depth: depth + 1))
        case .quote: return .string(try string())
        case .t:
            try literal("true")
            return .bool(true)
        case .f:
            try literal("false")
            return .bool(false)
        case .n:
            try literal("null")
            return .null
        case .minus, .zero...(.zero + 9): return .number(try number())
        default: throw failure("unexpected \(Self.shown(byte))")
        }
    }

    /// A byte of the text for an error message: itself when it is printable ASCII, else its value in hex.
    private static func shown(_ byte: UInt8) -> String {
        (0x21...0x7E).contains(byte) ? "'\(Unicode.Scalar(byte))'" : "byte 0x" + String(byte, radix: 16)
    }

    private mutating func literal(_ word: StaticString) throws(JSONParseError) {
        let length = word.utf8CodeUnitCount
        guard bytes.count - index >= length,
            UnsafeBufferPointer(rebasing: bytes[index..<index + length]).elementsEqual(
                UnsafeBufferPointer(start: word.utf8Start, count: length))
        else { throw failure("invalid literal (expected '\(word)')") }
        index += length
    }

    /// §4: members in braces, separated by commas.
    private mutating func object(depth: Int) throws(JSONParseError) -> [String: JSONValue] {
        var members: [String: JSONValue] = [:]
        if try opens(depth: depth, closing: .closeBrace) { return members }
        repeat {
            skipWhitespace()
            guard next == .quote else { throw failure("expected a member name in quotes") }
            let name = try string()
            skipWhitespace()
            guard next == .colon else { throw failure("expected ':' after a member name") }
            index += 1
            members[name] = try value(depth: depth)
        } while try !closes(.closeBrace, in: "an object")
        return members
    }

    /// §5: values in brackets, separated by commas.
    private mutating func array(depth: Int) throws(JSONParseError) -> [JSONValue] {
        var elements: [JSONValue] = []
        if try opens(depth: depth, closing: .closeBracket) { return elements }
        repeat {
            elements.append(try value(depth: depth))
        } while try !closes(.closeBracket, in: "an array")
        return elements
    }

    /// Steps over the opening brace or bracket at `depth`; `true` when `closing` follows at once (an empty
    /// container, consumed).
    private mutating func opens(depth: Int, closing: UInt8) throws(JSONParseError) -> Bool {
        guard depth <= JSONValue.maximumDepth else { throw failure("nested deeper than \(JSONValue.maximumDepth)") }
        index += 1
        skipWhitespace()
        guard next == closing else { return false }
        index += 1
        return true
    }

    /// After a member or an element: `false` after a comma (another follows), `true` after `closing` (consumed).
    private mutating func closes(_ closing: UInt8, in container: String) throws(JSONParseError) -> Bool {
        skipWhitespace()
        switch next {
        case .comma:
            index += 1
            return false
        case closing:
            index += 1
            return true
        default: throw failure("expected ',' or '\(Unicode.Scalar(closing))' in \(container)")
        }
    }

    /// §6: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, as the nearest `Double`; a whole number of
    /// up to 15 digits is computed exactly without going through text.
    private mutating func number() throws(JSONParseError) -> Double {
        let start = index
        let negative = next == .minus
        if negative { index += 1 }
        guard let first = next, first.isDigit else { throw failure("invalid number", at: start) }
        var whole: Int64 = 0
        var digitCount = 1
        if first == .zero {
            index += 1
        } else {
            digitCount = 0
            while let digit = next, digit.isDigit {
                if digitCount < 15 { whole = whole * 10 + Int64(digit - .zero) }
                digitCount += 1
                index += 1
            }
        }
        var exact = digitCount <= 15
        if next == .dot {
            exact = false
            index += 1
            guard digits() else { throw failure("invalid number: no digit after '.'", at: start) }
        }
        if next == .e || next == .capitalE {
            exact = false
            index += 1
            if next == .plus || next == .minus { index += 1 }
            guard digits() else { throw failure("invalid number: no digit in the exponent", at: start) }
        }
        if exact { return negative ? -Double(whole) : Double(whole) }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            throw failure("number out of range", at: start)
        }
        return value
    }

    /// Skips `[0-9]*`; whether there was one.
    private mutating func digits() -> Bool {
        let start = index
        while let digit = next, digit.isDigit { index += 1 }
        return index > start
    }

    /// §7: a string in quotes, its escapes decoded; its text must be valid UTF-8 (§8.1).
    mutating func string() throws(JSONParseError) -> String {
        index += 1
        let start = index
        while let byte = next, byte != .quote, byte != .backslash {
            guard byte >= 0x20 else { throw failure("control character in a string") }
            index += 1
        }
        guard let byte = next else { throw failure("unterminated string", at: start - 1) }
        if byte == .quote {
            index += 1
            return try text(UnsafeBufferPointer(rebasing: bytes[start..<index - 1]), at: start)
        }
        var decoded = Array(bytes[start..<index])
        while let byte = next {
            index += 1
            switch byte {
            case .quote:
                return try decoded.withUnsafeBufferPointer { buffer throws(JSONParseError) in
                    try text(buffer, at: start)
                }
            case .backslash: try escape(into: &decoded)
            case ..<0x20: throw failure("control character in a string", at: index - 1)
            default: decoded.append(byte)
            }
        }
        throw failure("unterminated string", at: start - 1)
    }

    private func text(_ utf8: UnsafeBufferPointer<UInt8>, at offset: Int) throws(JSONParseError) -> String {
        guard let text = String(validating: utf8, as: UTF8.self) else {
            throw failure("invalid UTF-8 in a string", at: offset)
        }
        return text
    }

    /// The escape after a backslash: one of `"\/bfnrt`, or `u` and four hex digits, a UTF-16 code unit; a high
    /// surrogate must be followed by an escaped low one.
    private mutating func escape(into decoded: inout [UInt8]) throws(JSONParseError) {
        guard let byte = next else { throw failure("unterminated string") }
        index += 1
        let simple: UInt8? =
            switch byte {
            case .quote, .backslash, .slash: byte
            case .b: 0x08
            case .f: 0x0C
            case .n: .lineFeed
            case .r: .carriageReturn
            case .t: .tab
            default: nil
            }
        if let simple {
            decoded.append(simple)
            return
        }
        guard byte == .u else { throw failure("invalid escape: backslash and \(Self.shown(byte))", at: index - 2) }
        let start = index - 2
        var unit = UInt32(try hexUnit())
        if (0xD800...0xDBFF).contains(unit) {
            guard next == .backslash, index + 1 < bytes.count, bytes[index + 1] == .u else {
                throw failure("unpaired surrogate escape", at: start)
            }
            index += 2
            let low = UInt32(try hexUnit())
            guard (0xDC00...0xDFFF).contains(low) else { throw failure("unpaired surrogate escape", at: start) }
            unit = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
        } else if (0xDC00...0xDFFF).contains(unit) {
            throw failure("unpaired surrogate escape", at: start)
        }
        guard let scalar = Unicode.Scalar(unit) else { throw failure("invalid escape", at: start) }
        decoded.append(contentsOf: UTF8.encode(scalar)!)
    }

    /// Four hex digits.
    private mutating func hexUnit() throws(JSONParseError) -> UInt16 {
        guard bytes.count - index >= 4 else { throw failure("'\\u' needs four hex digits") }
        var unit: UInt16 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8 =
                switch byte {
                case .zero...(.zero + 9): byte - .zero
                case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
                default: throw failure("'\\u' needs four hex digits")
                }
            unit = unit << 4 | UInt16(digit)
            index += 1
        }
        return unit
    }
}

extension UInt8 {
    fileprivate static let tab = UInt8(ascii: "\t")
    fileprivate static let lineFeed = UInt8(ascii: "\n")
    fileprivate static let carriageReturn = UInt8(ascii: "\r")
    fileprivate static let space = UInt8(ascii: " ")
    fileprivate static let quote = UInt8(ascii: "\"")
    fileprivate static let plus = UInt8(ascii: "+")
    fileprivate static let comma = UInt8(ascii: ",")
    fileprivate static let minus = UInt8(ascii: "-")
    fileprivate static let dot = UInt8(ascii: ".")
    fileprivate static let slash = UInt8(ascii: "/")
    fileprivate static let zero = UInt8(ascii: "0")
    fileprivate static let colon = UInt8(ascii: ":")
    fileprivate static let capitalE = UInt8(ascii: "E")
    fileprivate static let openBracket = UInt8(ascii: "[")
    fileprivate static let backslash = UInt8(ascii: "\\")
    fileprivate static let closeBracket = UInt8(ascii: "]")
    fileprivate static let b = UInt8(ascii: "b")
    fileprivate static let e = UInt8(ascii: "e")
    fileprivate static let f = UInt8(ascii: "f")
    fileprivate static let n = UInt8(ascii: "n")
    fileprivate static let r = UInt8(ascii: "r")
    fileprivate static let t = UInt8(ascii: "t")
    fileprivate static let u = UInt8(ascii: "u")
    fileprivate static let openBrace = UInt8(ascii: "{")
    fileprivate static let closeBrace = UInt8(ascii: "}")

    fileprivate var isDigit: Bool { self >= .zero && self <= .zero + 9 }
}
