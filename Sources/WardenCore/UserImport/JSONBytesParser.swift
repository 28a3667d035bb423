public import WardenWire

/// A JSON text (RFC 8259) parsed from UTF-8 bytes into a ``JSONValue``, for the users files of SPEC §9 "Bulk
/// users": one pass over the bytes, no `Codable` machinery, so a million entries parse in seconds.
public struct JSONBytesParser {
    /// Why a text is not JSON, with the byte offset where parsing stopped.
    public struct SyntaxError: Error, Equatable, Sendable {
        public var offset: Int
        public var reason: String
    }

    /// Nesting deeper than this is refused (a user profile is a few levels deep).
    static let maxDepth = 64

    /// Parses exactly one JSON value (whitespace around it allowed).
    public static func parse(_ bytes: some Collection<UInt8>) throws(SyntaxError) -> JSONValue {
        let array = Array(bytes)
        return try array.withUnsafeBufferPointer { buffer throws(SyntaxError) in
            var parser = Cursor(bytes: buffer)
            let value = try parser.value(depth: 0)
            parser.skipWhitespace()
            guard parser.position == buffer.count else { throw parser.error("unexpected data after the value") }
            return value
        }
    }

    private struct Cursor {
        let bytes: UnsafeBufferPointer<UInt8>
        var position = 0

        init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        func error(_ reason: String) -> SyntaxError { SyntaxError(offset: position, reason: reason) }

        mutating func skipWhitespace() {
            while position < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[position]) { position += 1 }
        }

        mutating func value(depth: Int) throws(SyntaxError) -> JSONValue {
            guard depth < JSONBytesParser.maxDepth else { throw error("nested too deeply") }
            skipWhitespace()
            guard position < bytes.count else { throw error("unexpected end of data") }
            switch bytes[position] {
            case UInt8(ascii: "{"): return try object(depth: depth)
            case UInt8(ascii: "["): return try array(depth: depth)
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): return try literal("true", .bool(true))
            case UInt8(ascii: "f"): return try literal("false", .bool(false))
            case UInt8(ascii: "n"): return try literal("null", .null)
            default: return .number(try number())
            }
        }

        private mutating func literal(_ word: StaticString, _ value: JSONValue) throws(SyntaxError) -> JSONValue {
            let count = word.utf8CodeUnitCount
            guard position + count <= bytes.count,
                (0..<count).allSatisfy({ bytes[position + $0] == word.utf8Start[$0] })
            else { throw error("invalid literal") }
            position += count
            return value
        }

        private mutating func object(depth: Int) throws(SyntaxError) -> JSONValue {
            position += 1
            var members: [String: JSONValue] = [:]
            skipWhitespace()
            if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
                position += 1
                return .object(members)
            }
            while true {
                skipWhitespace()
                guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else {
                    throw error("expected a member name")
                }
                let key = try string()
                skipWhitespace()
                guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else { throw error("expected ':'") }
                position += 1
                members[key] = try value(depth: depth + 1)
                skipWhitespace()
                guard position < bytes.count else { throw error("unexpected end of data") }
                let separator = bytes[position]
                position += 1
                if separator == UInt8(ascii: "}") { return .object(members) }
                guard separator == UInt8(ascii: ",") else { throw error("expected ',' or '}'") }
            }
        }

        private mutating func array(depth: Int) throws(SyntaxError) -> JSONValue {
            position += 1
            var elements: [JSONValue] = []
            skipWhitespace()
            if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
                position += 1
                return .array(elements)
            }
            while true {
                elements.append(try value(depth: depth + 1))
                skipWhitespace()
                guard position < bytes.count else { throw error("unexpected end of data") }
                let separator = bytes[position]
                position += 1
                if separator == UInt8(ascii: "]") { return .array(elements) }
                guard separator == UInt8(ascii: ",") else { throw error("expected ',' or ']'") }
            }
        }

        /// A string; the common case without escapes is decoded straight from the bytes.
        private mutating func string() throws(SyntaxError) -> String {
            position += 1
            let start = position
            while position < bytes.count {
                let byte = bytes[position]
                if byte == UInt8(ascii: "\"") {
                    let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
                    position += 1
                    return text
                }
                if byte == UInt8(ascii: "\\") { return try escapedString(from: start) }
                guard byte >= 0x20 else { throw error("control character in a string") }
                position += 1
            }
            throw error("unterminated string")
        }

        private mutating func escapedString(from start: Int) throws(SyntaxError) -> String {
            var scalars = String.UnicodeScalarView()
            scalars.append(
                contentsOf: String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
                    .unicodeScalars)
            var pending: [UInt8] = []
            func flush() {
                scalars.append(contentsOf: String(decoding: pending, as: UTF8.self).unicodeScalars)
                pending.removeAll(keepingCapacity: true)
            }
            while position < bytes.count {
                let byte = bytes[position]
                position += 1
                switch byte {
                case UInt8(ascii: "\""):
                    flush()
                    return String(scalars)
                case UInt8(ascii: "\\"):
                    flush()
                    scalars.append(try escape())
                case 0..<0x20:
                    throw error("control character in a string")
                default:
                    pending.append(byte)
                }
            }
            throw error("unterminated string")
        }

        private mutating func escape() throws(SyntaxError) -> Unicode.Scalar {
            guard position < bytes.count else { throw error("unterminated string") }
            let byte = bytes[position]
            position += 1
            switch byte {
            case UInt8(ascii: "\""): return "\""
            case UInt8(ascii: "\\"): return "\\"
            case UInt8(ascii: "/"): return "/"
            case UInt8(ascii: "b"): return "\u{08}"
            case UInt8(ascii: "f"): return "\u{0C}"
            case UInt8(ascii: "n"): return "\n"
            case UInt8(ascii: "r"): return "\r"
            case UInt8(ascii: "t"): return "\t"
            case UInt8(ascii: "u"):
                let unit = try hexQuad()
                if (0xD800..<0xDC00).contains(unit) {
                    guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"),
                        bytes[position + 1] == UInt8(ascii: "u")
                    else { throw error("unpaired surrogate") }
                    position += 2
                    let low = try hexQuad()
                    guard (0xDC00..<0xE000).contains(low) else { throw error("unpaired surrogate") }
                    return Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))!
                }
                guard let scalar = Unicode.Scalar(unit) else { throw error("unpaired surrogate") }
                return scalar
            default:
                throw error("invalid escape")
            }
        }

        private mutating func hexQuad() throws(SyntaxError) -> UInt32 {
            guard position + 4 <= bytes.count else { throw error("invalid \\u escape") }
            var result: UInt32 = 0
            for _ in 0..<4 {
                let byte = bytes[position]
                let digit: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
                default: throw error("invalid \\u escape")
                }
                result = result << 4 | UInt32(digit)
                position += 1
            }
            return result
        }

        /// A number in RFC 8259 §6 syntax.
        private mutating func number() throws(SyntaxError) -> Double {
            let start = position
            func digits() -> Int {
                let first = position
                while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) {
                    position += 1
                }
                return position - first
            }
            if position < bytes.count, bytes[position] == UInt8(ascii: "-") { position += 1 }
            let integer = position
            guard digits() > 0 else { throw error("invalid value") }
            guard bytes[integer] != UInt8(ascii: "0") || position - integer == 1 else {
                throw error("leading zero in a number")
            }
            if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
                position += 1
                guard digits() > 0 else { throw error("invalid number") }
            }
            if position < bytes.count, bytes[position] | 0x20 == UInt8(ascii: "e") {
                position += 1
                if position < bytes.count, [UInt8(ascii: "+"), UInt8(ascii: "-")].contains(bytes[position]) {
                    position += 1
                }
                guard digits() > 0 else { throw error("invalid number") }
            }
            let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
            guard let value = Double(text) else { throw error("invalid number") }
            return value
        }
    }
}
