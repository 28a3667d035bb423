/// A user search query (`GET /api/v2/users?q=…`, SPEC §9) that Warden cannot run.
///
/// ``message`` names the position (counted in Unicode scalars from 1) and is safe to show: the Management API
/// answers it as the `message` of a 400 `invalid_query_string`. Two errors are equal when their codes are.
public struct UserQueryError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of mistake the query makes; an open set.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Base: String {
            case unexpectedToken = "unexpected_token"
            case unterminatedPhrase = "unterminated_phrase"
            case unknownField = "unknown_field"
            case invalidValue = "invalid_value"
            case unsupportedSyntax = "unsupported_syntax"
            case nestingTooDeep = "nesting_too_deep"
            case queryTooLong = "query_too_long"
            case tooManyTerms = "too_many_terms"
        }

        private let base: Base

        /// A token, character or the end of the query where the grammar does not allow it.
        public static let unexpectedToken = Code(base: .unexpectedToken)
        /// A `"` without its closing quote, or a `\` with nothing to escape.
        public static let unterminatedPhrase = Code(base: .unterminatedPhrase)
        /// A field that is not searchable, or a metadata path that is not `segment(.segment)*`.
        public static let unknownField = Code(base: .unknownField)
        /// A value the field cannot take: not `true`/`false` for a boolean, a `*` not at the end.
        public static let invalidValue = Code(base: .invalidValue)
        /// Lucene syntax Warden does not implement: ranges, fuzzy and proximity, boosts, `?`, regular expressions.
        public static let unsupportedSyntax = Code(base: .unsupportedSyntax)
        /// More nested groups and negations than ``UserQueryParser/maximumDepth``.
        public static let nestingTooDeep = Code(base: .nestingTooDeep)
        /// More characters than ``UserQueryParser/maximumLength``.
        public static let queryTooLong = Code(base: .queryTooLong)
        /// More terms than ``UserQueryParser/maximumTerms`` (SPEC §11).
        public static let tooManyTerms = Code(base: .tooManyTerms)

        public var description: String { base.rawValue }
    }

    /// The kind of mistake.
    public let code: Code
    /// A sentence for the caller, naming the position, e.g. "Unexpected ')' at position 12".
    public let message: String
    /// Where the mistake is, counted in Unicode scalars from 1; `nil` when it is the query as a whole.
    public let position: Int?

    /// Builds "`message` at position `position`: `hint`"; the position and the hint are optional.
    init(_ code: Code, _ message: String, at position: Int?, hint: String? = nil) {
        self.code = code
        self.message = message + (position.map { " at position \($0)" } ?? "") + (hint.map { ": \($0)" } ?? "")
        self.position = position
    }

    public var description: String { message }

    public static func == (lhs: UserQueryError, rhs: UserQueryError) -> Bool {
        lhs.code == rhs.code
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
    }
}
