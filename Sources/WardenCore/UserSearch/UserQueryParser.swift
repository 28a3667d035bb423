/// Parses the user search syntax of SPEC §9 (the vendor's `search_engine=v3`, a subset of Lucene's) into a
/// ``UserQuery``.
///
/// Grammar, loosest binding first (`AND` binds tighter than `OR`, Lucene's default):
/// ```
/// query   = [ or ]                                      ; nothing, or only spaces: every user
/// or      = and *( ( "OR" / "||" ) and )
/// and     = unary *( [ "AND" / "&&" ] unary )            ; adjacent clauses are ANDed
/// unary   = ( "NOT" / "!" / "-" / "+" ) unary / primary  ; "+" (required) changes nothing
/// primary = field ":" value / "_exists_" ":" field / value
/// value   = word / phrase / "(" or ")"                   ; "field:(a OR b)" gives bare a and b that field
/// ```
/// A word runs to the next space, `(`, `)`, `:` or `"`; a phrase is `"…"`; `\` escapes any character in both.
/// A word ending in an unescaped `*` is a prefix; `*` alone is every user, or `_exists_` after `field:`.
/// `-`, `!` and `+` are operators only where a clause starts. Operators are upper case; `and` is a word.
/// Lucene syntax Warden does not implement (ranges, `~`, `^`, `?`, `/regex/`, a leading `*`) is rejected
/// with ``UserQueryError/Code/unsupportedSyntax`` or ``UserQueryError/Code/invalidValue`` rather than read
/// differently.
public enum UserQueryParser {
    /// The longest query accepted, in Unicode scalars.
    public static let maximumLength = 2000
    /// The most groups and negations a clause may sit inside.
    public static let maximumDepth = 32
    /// The most terms (`field:value`, bare values, `_exists_:field`) one query may hold (SPEC §11: a query too
    /// complex to run is refused, not a 500): with ``maximumDepth``, this keeps the SQL expression well inside
    /// SQLite's expression-depth limit (1,000) and its bound-parameter limit, a bare term counting four.
    public static let maximumTerms = 100

    /// Parses `q`; the empty query and `*` give ``UserQuery/matchAll``.
    public static func parse(_ q: String) throws(UserQueryError) -> UserQuery {
        guard q.unicodeScalars.count <= maximumLength else {
            throw UserQueryError(.queryTooLong, "Query is longer than \(maximumLength) characters", at: nil)
        }
        var parser = Parser(tokens: try Lexer.tokens(in: Array(q.unicodeScalars)))
        return try parser.parseQuery()
    }
}

private struct Token {
    enum Kind {
        case word(String, isPrefix: Bool)
        case phrase(String)
        case leftParenthesis, rightParenthesis, colon
        case and, or, not, plus
        case end
    }

    var kind: Kind
    /// The token as written, for messages.
    var text: String
    /// Counted in Unicode scalars from 1.
    var position: Int
}

private struct Lexer {
    let scalars: [Unicode.Scalar]
    var index = 0

    static func tokens(in scalars: [Unicode.Scalar]) throws(UserQueryError) -> [Token] {
        var lexer = Lexer(scalars: scalars)
        var tokens: [Token] = []
        while let token = try lexer.next() {
            tokens.append(token)
        }
        tokens.append(Token(kind: .end, text: "end of query", position: scalars.count + 1))
        return tokens
    }

    private mutating func next() throws(UserQueryError) -> Token? {
        while index < scalars.count, scalars[index].properties.isWhitespace {
            index += 1
        }
        guard index < scalars.count else { return nil }
        let scalar = scalars[index]
        let kind: Token.Kind? =
            switch scalar {
            case "(": .leftParenthesis
            case ")": .rightParenthesis
            case ":": .colon
            case "!", "-": .not
            case "+": .plus
            default: nil
            }
        if let kind {
            index += 1
            return Token(kind: kind, text: String(scalar), position: index)
        }
        return scalar == "\"" ? try phrase() : try word()
    }

    private mutating func phrase() throws(UserQueryError) -> Token {
        let start = index
        var value = String.UnicodeScalarView()
        index += 1
        while index < scalars.count {
            let scalar = scalars[index]
            switch scalar {
            case "\"":
                index += 1
                return Token(kind: .phrase(String(value)), text: source(from: start), position: start + 1)
            case "\\":
                value.append(try escaped())
            default:
                try rejectControl(scalar)
                value.append(scalar)
                index += 1
            }
        }
        throw UserQueryError(.unterminatedPhrase, "Unterminated quoted phrase starting", at: start + 1)
    }

    private mutating func word() throws(UserQueryError) -> Token {
        let start = index
        var value = String.UnicodeScalarView()
        var wildcardPosition: Int?
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar.properties.isWhitespace || "():\"".unicodeScalars.contains(scalar) {
                break
            }
            if let wildcardPosition {
                throw UserQueryError(
                    .invalidValue, "Wildcard '*' is only supported at the end of a value", at: wildcardPosition)
            }
            switch scalar {
            case "\\":
                value.append(try escaped())
            case "*":
                index += 1
                wildcardPosition = index
            case "?", "~", "^", "[", "]", "{", "}", "/":
                throw UserQueryError(
                    .unsupportedSyntax, "Unsupported character '\(scalar)'", at: index + 1,
                    hint: "escape it with '\\' or quote the value")
            default:
                try rejectControl(scalar)
                value.append(scalar)
                index += 1
            }
        }
        let text = source(from: start)
        let kind: Token.Kind =
            switch text {
            case "AND", "&&": .and
            case "OR", "||": .or
            case "NOT": .not
            default: .word(String(value), isPrefix: wildcardPosition != nil)
            }
        return Token(kind: kind, text: text, position: start + 1)
    }

    /// Consumes `\` and the character it escapes, and returns that character.
    private mutating func escaped() throws(UserQueryError) -> Unicode.Scalar {
        guard index + 1 < scalars.count else {
            throw UserQueryError(.unterminatedPhrase, "Nothing to escape after '\\'", at: index + 1)
        }
        let scalar = scalars[index + 1]
        try rejectControl(scalar)
        index += 2
        return scalar
    }

    /// Control characters other than whitespace (which separates tokens or stays in a phrase) are refused.
    private func rejectControl(_ scalar: Unicode.Scalar) throws(UserQueryError) {
        guard scalar.properties.generalCategory == .control, !scalar.properties.isWhitespace else { return }
        let hex = String(scalar.value, radix: 16, uppercase: true)
        let padded = String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        throw UserQueryError(.unexpectedToken, "Unexpected control character U+\(padded)", at: index + 1)
    }

    private func source(from start: Int) -> String {
        String(String.UnicodeScalarView(scalars[start..<index]))
    }
}

private struct Parser {
    let tokens: [Token]
    var index = 0
    /// The terms parsed so far, at most ``UserQueryParser/maximumTerms``.
    var terms = 0

    private var current: Token { tokens[index] }

    mutating func parseQuery() throws(UserQueryError) -> UserQuery {
        if case .end = current.kind {
            return .matchAll
        }
        let query = try parseOr(field: nil, depth: 0)
        guard case .end = current.kind else {
            throw Self.unexpected(current)
        }
        return query
    }

    /// `field` is the one a `field:( … )` group gives its bare values; `depth` counts enclosing groups and
    /// negations.
    private mutating func parseOr(field: UserQueryField?, depth: Int) throws(UserQueryError) -> UserQuery {
        var operands = [try parseAnd(field: field, depth: depth)]
        while case .or = current.kind {
            index += 1
            operands.append(try parseAnd(field: field, depth: depth))
        }
        guard operands.count > 1 else { return operands[0] }
        return .or(
            operands.flatMap { operand -> [UserQuery] in
                if case .or(let inner) = operand { inner } else { [operand] }
            })
    }

    private mutating func parseAnd(field: UserQueryField?, depth: Int) throws(UserQueryError) -> UserQuery {
        var operands = [try parseUnary(field: field, depth: depth)]
        while true {
            switch current.kind {
            case .and:
                index += 1
            case .word, .phrase, .leftParenthesis, .not, .plus:
                break
            default:
                guard operands.count > 1 else { return operands[0] }
                return .and(
                    operands.flatMap { operand -> [UserQuery] in
                        if case .and(let inner) = operand { inner } else { [operand] }
                    })
            }
            operands.append(try parseUnary(field: field, depth: depth))
        }
    }

    private mutating func parseUnary(field: UserQueryField?, depth: Int) throws(UserQueryError) -> UserQuery {
        switch current.kind {
        case .not:
            let depth = try deeper(depth)
            index += 1
            return .not(try parseUnary(field: field, depth: depth))
        case .plus:
            let depth = try deeper(depth)
            index += 1
            return try parseUnary(field: field, depth: depth)
        default:
            return try parsePrimary(field: field, depth: depth)
        }
    }

    private mutating func parsePrimary(field: UserQueryField?, depth: Int) throws(UserQueryError) -> UserQuery {
        guard case .word(let name, let isPrefix) = current.kind, case .colon = tokens[index + 1].kind else {
            return try parseValue(field: field, depth: depth)
        }
        let nameToken = current
        index += 2
        if name == "_exists_", !isPrefix {
            let fieldToken = current
            guard case .word(let fieldName, let isPrefix) = fieldToken.kind else {
                throw Self.unexpected(fieldToken)
            }
            try countTerm(fieldToken)
            index += 1
            return .exists(try Self.field(named: fieldName, isPrefix: isPrefix, token: fieldToken))
        }
        return try parseValue(field: Self.field(named: name, isPrefix: isPrefix, token: nameToken), depth: depth)
    }

    private mutating func parseValue(field: UserQueryField?, depth: Int) throws(UserQueryError) -> UserQuery {
        let token = current
        switch token.kind {
        case .leftParenthesis:
            let depth = try deeper(depth)
            index += 1
            let query = try parseOr(field: field, depth: depth)
            guard case .rightParenthesis = current.kind else {
                throw Self.unexpected(current)
            }
            index += 1
            return query
        case .phrase(let value):
            try countTerm(token)
            index += 1
            return try Self.term(field: field, value: .exact(value), token: token)
        case .word(let value, let isPrefix):
            try countTerm(token)
            index += 1
            return try Self.term(field: field, value: isPrefix ? .prefix(value) : .exact(value), token: token)
        default:
            throw Self.unexpected(token)
        }
    }

    private func deeper(_ depth: Int) throws(UserQueryError) -> Int {
        guard depth < UserQueryParser.maximumDepth else {
            throw UserQueryError(
                .nestingTooDeep,
                "Query nests more than \(UserQueryParser.maximumDepth) groups and negations", at: current.position)
        }
        return depth + 1
    }

    /// Counts the term at `token`, refusing the one past ``UserQueryParser/maximumTerms``.
    private mutating func countTerm(_ token: Token) throws(UserQueryError) {
        terms += 1
        guard terms <= UserQueryParser.maximumTerms else {
            throw UserQueryError(
                .tooManyTerms, "Query has more than \(UserQueryParser.maximumTerms) terms", at: token.position)
        }
    }

    private static func field(named name: String, isPrefix: Bool, token: Token) throws(UserQueryError)
        -> UserQueryField
    {
        guard !isPrefix else {
            throw UserQueryError(.unknownField, "Unknown field '\(token.text)'", at: token.position)
        }
        return try UserQueryField(named: name, at: token.position)
    }

    private static func term(field: UserQueryField?, value: UserQueryValue, token: Token) throws(UserQueryError)
        -> UserQuery
    {
        if value == .prefix("") {
            return field.map(UserQuery.exists) ?? .matchAll
        }
        guard let field, field.isBoolean else {
            return .term(field: field, value: value)
        }
        guard value == .exact("true") || value == .exact("false") else {
            throw UserQueryError(
                .invalidValue, "Field '\(field)' takes true or false, not '\(token.text)'", at: token.position)
        }
        return .term(field: field, value: value)
    }

    private static func unexpected(_ token: Token) -> UserQueryError {
        if case .end = token.kind {
            return UserQueryError(.unexpectedToken, "Unexpected end of query", at: token.position)
        }
        return UserQueryError(.unexpectedToken, "Unexpected '\(token.text)'", at: token.position)
    }
}
