import WardenWire

/// Parses the condition of a post-login rule (SPEC §8 "Post-login rules") into a ``RuleExpression``, so that
/// the Management API refuses a rule that does not parse at create and PATCH time, naming the position.
///
/// Grammar, loosest binding first (`!` binds tighter than `==`, `!=`, `in`, which bind tighter than `&&`, which
/// binds tighter than `||`):
/// ```
/// condition  = or
/// or         = and *( "||" and )
/// and        = comparison *( "&&" comparison )
/// comparison = unary [ ( "==" / "!=" / "in" ) unary ]   ; comparisons do not chain
/// unary      = "!" unary / primary
/// primary    = literal / array / path / "(" or ")" / "exists" "(" path ")"
/// array      = "[" [ literal *( "," literal ) ] "]"
/// literal    = string / number / "true" / "false" / "null"
/// path       = "event" 1*( "." name )                   ; one of the paths SPEC §8 lists
/// ```
/// Strings are double-quoted with JSON's escapes (`\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`, `\t`, `\uXXXX`);
/// numbers are JSON numbers. The right side of `in` is an array or a path. Positions count Unicode scalars from
/// 1, and every error says what was expected there, e.g. `expected ')' at position 17`.
public enum RuleParser {
    /// The longest condition accepted, in Unicode scalars.
    public static let maximumLength = 4096
    /// The most parentheses and negations an operand may sit inside.
    public static let maximumDepth = 32

    public static func parse(_ condition: String) throws(RuleSyntaxError) -> RuleExpression {
        let scalars = Array(condition.unicodeScalars)
        guard scalars.count <= maximumLength else {
            throw RuleSyntaxError("condition longer than \(maximumLength) characters", at: maximumLength + 1)
        }
        var parser = RuleTokenParser(tokens: try RuleLexer.tokens(in: scalars))
        return try parser.parseCondition()
    }
}

/// Why a condition does not parse: ``message`` is a sentence ending in the position (Unicode scalars from 1),
/// shown as is in the Management API's 400 `invalid_body`.
public struct RuleSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    public let message: String
    public let position: Int

    init(_ problem: String, at position: Int, hint: String? = nil) {
        self.message = "\(problem) at position \(position)" + (hint.map { ": \($0)" } ?? "")
        self.position = position
    }

    public var description: String { message }
}

private struct RuleToken {
    enum Kind: Equatable {
        case string(String)
        case number(Double)
        /// A name or a dotted path, as written.
        case word(String)
        case leftParenthesis, rightParenthesis, leftBracket, rightBracket, comma
        case comparison(RuleComparison)
        case not, and, or
        case end
    }

    var kind: Kind
    /// Counted in Unicode scalars from 1.
    var position: Int
}

private struct RuleLexer {
    let scalars: [Unicode.Scalar]
    var index = 0

    static func tokens(in scalars: [Unicode.Scalar]) throws(RuleSyntaxError) -> [RuleToken] {
        var lexer = RuleLexer(scalars: scalars)
        var tokens: [RuleToken] = []
        while let token = try lexer.next() {
            tokens.append(token)
        }
        tokens.append(RuleToken(kind: .end, position: scalars.count + 1))
        return tokens
    }

    private var position: Int { index + 1 }

    private func peek(_ offset: Int = 0) -> Unicode.Scalar? {
        index + offset < scalars.count ? scalars[index + offset] : nil
    }

    private mutating func next() throws(RuleSyntaxError) -> RuleToken? {
        while let scalar = peek(), scalar.properties.isWhitespace {
            index += 1
        }
        guard let scalar = peek() else { return nil }
        let start = position
        switch scalar {
        case "(": return single(.leftParenthesis)
        case ")": return single(.rightParenthesis)
        case "[": return single(.leftBracket)
        case "]": return single(.rightBracket)
        case ",": return single(.comma)
        case "=": return RuleToken(kind: .comparison(.equal), position: try pair("=", "=="))
        case "&": return RuleToken(kind: .and, position: try pair("&", "&&"))
        case "|": return RuleToken(kind: .or, position: try pair("|", "||"))
        case "!":
            index += 1
            guard peek() == "=" else { return RuleToken(kind: .not, position: start) }
            index += 1
            return RuleToken(kind: .comparison(.notEqual), position: start)
        case "\"": return RuleToken(kind: .string(try string()), position: start)
        case "-", "0"..."9": return RuleToken(kind: .number(try number()), position: start)
        default:
            guard Self.startsName(scalar) else {
                throw RuleSyntaxError("unexpected character \(Self.show(scalar))", at: start)
            }
            return RuleToken(kind: .word(word()), position: start)
        }
    }

    /// Consumes a one-character token.
    private mutating func single(_ kind: RuleToken.Kind) -> RuleToken {
        index += 1
        return RuleToken(kind: kind, position: index)
    }

    /// Consumes a two-character operator whose first character is `first`; returns where it started.
    private mutating func pair(_ first: Unicode.Scalar, _ spelled: String) throws(RuleSyntaxError) -> Int {
        let start = position
        guard peek(1) == first else { throw RuleSyntaxError("expected '\(spelled)'", at: start) }
        index += 2
        return start
    }

    private mutating func string() throws(RuleSyntaxError) -> String {
        let start = position
        var value = String.UnicodeScalarView()
        index += 1
        while let scalar = peek() {
            switch scalar {
            case "\"":
                index += 1
                return String(value)
            case "\\":
                value.append(try escaped())
            default:
                guard scalar.properties.generalCategory != .control else {
                    throw RuleSyntaxError("unexpected control character \(Self.show(scalar))", at: position)
                }
                value.append(scalar)
                index += 1
            }
        }
        throw RuleSyntaxError("expected '\"'", at: position, hint: "the string at position \(start) is not closed")
    }

    /// Consumes `\` and what it escapes, and returns the character meant.
    private mutating func escaped() throws(RuleSyntaxError) -> Unicode.Scalar {
        let start = position
        index += 1
        guard let scalar = peek() else { throw RuleSyntaxError("expected an escaped character", at: position) }
        index += 1
        switch scalar {
        case "\"", "\\", "/": return scalar
        case "b": return "\u{8}"
        case "f": return "\u{C}"
        case "n": return "\n"
        case "r": return "\r"
        case "t": return "\t"
        case "u":
            let digits = scalars[index..<min(index + 4, scalars.count)].map { Character($0) }
            guard digits.count == 4, let value = UInt32(String(digits), radix: 16), let decoded = Unicode.Scalar(value)
            else { throw RuleSyntaxError("expected four hexadecimal digits of a character after '\\u'", at: position) }
            index += 4
            return decoded
        default:
            throw RuleSyntaxError("unknown escape '\\\(scalar)'", at: start)
        }
    }

    /// A JSON number: `-?digits(.digits)?([eE][+-]?digits)?`.
    private mutating func number() throws(RuleSyntaxError) -> Double {
        let start = index
        if peek() == "-" { index += 1 }
        try digits()
        if peek() == "." {
            index += 1
            try digits()
        }
        if peek() == "e" || peek() == "E" {
            index += 1
            if peek() == "+" || peek() == "-" { index += 1 }
            try digits()
        }
        let text = String(String.UnicodeScalarView(scalars[start..<index]))
        guard let value = Double(text), value.isFinite else {
            throw RuleSyntaxError("number out of range", at: start + 1)
        }
        return value
    }

    private mutating func digits() throws(RuleSyntaxError) {
        guard let first = peek(), Self.isDigit(first) else { throw RuleSyntaxError("expected a digit", at: position) }
        while let scalar = peek(), Self.isDigit(scalar) {
            index += 1
        }
    }

    /// A name, or a dotted path: letters, digits, `_`, `-` and `.`.
    private mutating func word() -> String {
        let start = index
        while let scalar = peek(), Self.continuesName(scalar) || scalar == "." {
            index += 1
        }
        return String(String.UnicodeScalarView(scalars[start..<index]))
    }

    private static func isDigit(_ scalar: Unicode.Scalar) -> Bool { ("0"..."9").contains(scalar) }

    private static func startsName(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "_" || ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
    }

    private static func continuesName(_ scalar: Unicode.Scalar) -> Bool {
        startsName(scalar) || isDigit(scalar) || scalar == "-"
    }

    /// `'x'`, or `U+000A` for a character that does not print.
    private static func show(_ scalar: Unicode.Scalar) -> String {
        guard scalar.properties.generalCategory == .control || scalar.properties.isWhitespace else {
            return "'\(scalar)'"
        }
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}

private struct RuleTokenParser {
    let tokens: [RuleToken]
    var index = 0

    private var current: RuleToken { tokens[index] }

    static let operand = "a literal, a path, '!', '(' or 'exists'"

    mutating func parseCondition() throws(RuleSyntaxError) -> RuleExpression {
        let expression = try parseOr(depth: 0)
        guard current.kind == .end else {
            throw RuleSyntaxError("expected an operator or the end of the condition", at: current.position)
        }
        return expression
    }

    private mutating func parseOr(depth: Int) throws(RuleSyntaxError) -> RuleExpression {
        var operands = [try parseAnd(depth: depth)]
        while current.kind == .or {
            index += 1
            operands.append(try parseAnd(depth: depth))
        }
        guard operands.count > 1 else { return operands[0] }
        return .or(operands.flatMap { if case .or(let inner) = $0 { inner } else { [$0] } })
    }

    private mutating func parseAnd(depth: Int) throws(RuleSyntaxError) -> RuleExpression {
        var operands = [try parseComparison(depth: depth)]
        while current.kind == .and {
            index += 1
            operands.append(try parseComparison(depth: depth))
        }
        guard operands.count > 1 else { return operands[0] }
        return .and(operands.flatMap { if case .and(let inner) = $0 { inner } else { [$0] } })
    }

    private mutating func parseComparison(depth: Int) throws(RuleSyntaxError) -> RuleExpression {
        let left = try parseUnary(depth: depth)
        guard let comparison = currentComparison else { return left }
        index += 1
        let rightStart = current.position
        let right = try parseUnary(depth: depth)
        if comparison == .in, case .literal(let value) = right, value.arrayValue == nil {
            throw RuleSyntaxError("expected an array or a path after 'in'", at: rightStart)
        }
        guard currentComparison == nil else {
            throw RuleSyntaxError("expected '&&' or '||'", at: current.position, hint: "comparisons do not chain")
        }
        return .comparison(left, comparison, right)
    }

    /// The comparison operator at `current`, if it is one (`in` is a word).
    private var currentComparison: RuleComparison? {
        switch current.kind {
        case .comparison(let comparison): comparison
        case .word("in"): .in
        default: nil
        }
    }

    private mutating func parseUnary(depth: Int) throws(RuleSyntaxError) -> RuleExpression {
        guard current.kind == .not else { return try parsePrimary(depth: depth) }
        let depth = try deeper(depth)
        index += 1
        return .not(try parseUnary(depth: depth))
    }

    private mutating func parsePrimary(depth: Int) throws(RuleSyntaxError) -> RuleExpression {
        let token = current
        switch token.kind {
        case .leftParenthesis:
            let depth = try deeper(depth)
            index += 1
            let inner = try parseOr(depth: depth)
            try expect(.rightParenthesis, "')'")
            return inner
        case .leftBracket:
            return .literal(try parseArray())
        case .word("exists"):
            index += 1
            try expect(.leftParenthesis, "'('")
            guard case .word(let text) = current.kind else {
                throw RuleSyntaxError("expected a path", at: current.position)
            }
            let path = try Self.path(text, at: current.position)
            index += 1
            try expect(.rightParenthesis, "')'")
            return .exists(path)
        case .word(let text) where Self.isPath(text):
            index += 1
            return .path(try Self.path(text, at: token.position))
        default:
            return .literal(try parseLiteral(expected: Self.operand))
        }
    }

    /// `[` literal, … `]`.
    private mutating func parseArray() throws(RuleSyntaxError) -> JSONValue {
        index += 1
        var elements: [JSONValue] = []
        if current.kind == .rightBracket {
            index += 1
            return .array(elements)
        }
        while true {
            elements.append(try parseLiteral(expected: "a literal"))
            switch current.kind {
            case .comma: index += 1
            case .rightBracket:
                index += 1
                return .array(elements)
            default: throw RuleSyntaxError("expected ',' or ']'", at: current.position)
            }
        }
    }

    /// A string, number, `true`, `false` or `null`; otherwise an error saying `expected` was expected.
    private mutating func parseLiteral(expected: String) throws(RuleSyntaxError) -> JSONValue {
        let token = current
        let value: JSONValue
        switch token.kind {
        case .string(let text): value = .string(text)
        case .number(let number): value = .number(number)
        case .word("true"): value = .bool(true)
        case .word("false"): value = .bool(false)
        case .word("null"): value = .null
        case .word(let text) where !Self.isPath(text):
            throw RuleSyntaxError(
                "unknown name '\(text)'", at: token.position, hint: "expected \(expected); paths start with 'event.'")
        default:
            throw RuleSyntaxError("expected \(expected)", at: token.position)
        }
        index += 1
        return value
    }

    private mutating func expect(_ kind: RuleToken.Kind, _ spelled: String) throws(RuleSyntaxError) {
        guard current.kind == kind else { throw RuleSyntaxError("expected \(spelled)", at: current.position) }
        index += 1
    }

    private func deeper(_ depth: Int) throws(RuleSyntaxError) -> Int {
        guard depth < RuleParser.maximumDepth else {
            throw RuleSyntaxError(
                "nesting deeper than \(RuleParser.maximumDepth) parentheses and negations", at: current.position)
        }
        return depth + 1
    }

    /// Whether a word is meant as a path.
    private static func isPath(_ text: String) -> Bool { text == "event" || text.hasPrefix("event.") }

    /// The dotted `text` written at `position` as a path SPEC §8 lists.
    private static func path(_ text: String, at position: Int) throws(RuleSyntaxError) -> RulePath {
        let segments = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        var offset = 0
        for segment in segments {
            guard !segment.isEmpty else {
                throw RuleSyntaxError("expected a name after '.'", at: position + offset)
            }
            offset += segment.unicodeScalars.count + 1
        }
        guard segments[0] == "event", let path = RulePath(segments: Array(segments.dropFirst())) else {
            throw RuleSyntaxError("unknown path '\(text)'", at: position)
        }
        return path
    }
}
