public import WardenWire

extension PasswordPolicy {
    /// Why the policy refuses a password (SPEC §15.1), in the shapes the server answers with: `/dbconnections/*`
    /// 400 `invalid_password` with ``name``, ``ruleReport`` as `description` and ``policyText`` as `policy`; the
    /// Management API's 400 `invalid_body` with ``description`` ("PasswordStrengthError: Password is too weak");
    /// the hosted pages list ``brokenRuleMessages``.
    ///
    /// A strength refusal carries the reference platform's rules (`password-sheriff`), each `verified` or not. The
    /// other refusals carry one rule of Warden's own (codes `passwordDictionary`, `passwordNoPersonalInfo`,
    /// `passwordHistory`), not verified, so that every refusal has the same shape.
    public struct Violation: Error, Sendable, Equatable, CustomStringConvertible {
        /// The reference platform's error names.
        public struct Name: OpenStringValue {
            public let rawValue: String
            public init(rawValue: String) { self.rawValue = rawValue }

            /// The level, `min_length` or the 72-byte maximum.
            public static let strength: Name = "PasswordStrengthError"
            /// `password_history`.
            public static let history: Name = "PasswordHistoryError"
            /// `password_dictionary`.
            public static let dictionary: Name = "PasswordDictionaryError"
            /// `password_no_personal_info`.
            public static let noUserInfo: Name = "PasswordNoUserInfoError"

            /// Every name a refusal may carry.
            public static let allNames: [Name] = [.strength, .history, .dictionary, .noUserInfo]
        }

        public let name: Name
        /// One line: "Password is too weak", "Password is too long", "Password is too common", "Password contains
        /// user information", "Password has previously been used".
        public let message: String
        /// The rules, checked against the password: objects of `message` (with `%d` and `%s` placeholders),
        /// `code`, `format` (the placeholders' values) when it has any, `items` (the rules under it) when it has
        /// any, and `verified`.
        public let rules: [JSONValue]
        /// The rules as text, one `* ` line each, their items indented by one space below them.
        public let policyText: String
        /// The rules the password breaks, as sentences with their values filled in, for a hosted page.
        public let brokenRuleMessages: [String]

        /// `{"rules": [...], "verified": false}`: the `description` of a `/dbconnections` refusal.
        public var ruleReport: JSONValue { ["rules": .array(rules), "verified": false] }

        /// The name and the message, e.g. "PasswordStrengthError: Password is too weak".
        public var description: String { "\(name.rawValue): \(message)" }

        init(name: Name, message: String, rules: [PasswordRule]) {
            self.name = name
            self.message = message
            self.rules = rules.map(\.json)
            self.policyText = rules.flatMap { $0.outline(depth: 0) }.joined(separator: "\n")
            self.brokenRuleMessages = rules.filter { !$0.verified }.map(\.sentence)
        }

        /// The refusal of a password that breaks strength rules, `rules` being all of them, checked.
        static func strength(_ rules: [PasswordRule]) -> Violation {
            let onlyTooLong = rules.allSatisfy { $0.verified || $0.code == "maxLength" }
            return Violation(
                name: .strength, message: onlyTooLong ? "Password is too long" : "Password is too weak", rules: rules)
        }

        static let dictionary = Violation(
            name: .dictionary, message: "Password is too common",
            rules: [
                PasswordRule(
                    code: "passwordDictionary", message: "Not a commonly used password or a forbidden word",
                    verified: false)
            ])

        static let personalInfo = Violation(
            name: .noUserInfo, message: "Password contains user information",
            rules: [
                PasswordRule(
                    code: "passwordNoPersonalInfo",
                    message: "Not containing your name, your nickname or the part of your e-mail address before the @",
                    verified: false)
            ])

        static let history = Violation(
            name: .history, message: "Password has previously been used",
            rules: [
                PasswordRule(code: "passwordHistory", message: "Not one of your recent passwords", verified: false)
            ])
    }
}

/// One rule of a refusal, as the reference's `password-sheriff` reports it (its `missing` result): a message
/// with `%d` / `%s` placeholders and their values, the rules under it, and whether the password meets it.
struct PasswordRule: Sendable, Equatable {
    /// A placeholder's value.
    enum Argument: Sendable, Equatable {
        case number(Int)
        case text(String)

        var json: JSONValue {
            switch self {
            case .number(let number): .number(Double(number))
            case .text(let text): .string(text)
            }
        }

        var text: String {
            switch self {
            case .number(let number): String(number)
            case .text(let text): text
            }
        }
    }

    let code: String
    let message: String
    let format: [Argument]
    let items: [PasswordRule]
    let verified: Bool
    /// The rule's sentence on a hosted page when it is not the default one (``sentence``).
    private let customSentence: String?

    init(
        code: String, message: String, format: [Argument] = [], items: [PasswordRule] = [], verified: Bool,
        sentence: String? = nil
    ) {
        self.code = code
        self.message = message
        self.format = format
        self.items = items
        self.verified = verified
        self.customSentence = sentence
    }

    /// The rule as one sentence on a hosted page: by default its message filled in, then its items'.
    var sentence: String {
        customSentence
            ?? filledMessage + (items.isEmpty ? "" : " " + items.map(\.filledMessage).joined(separator: ", "))
    }

    /// The message with its placeholders replaced by the ``format`` values, in order.
    var filledMessage: String { Self.filling(message, with: format) }

    /// The reference's JSON of the rule.
    var json: JSONValue {
        var object: [String: JSONValue] = [
            "message": .string(message), "code": .string(code), "verified": .bool(verified),
        ]
        if !format.isEmpty { object["format"] = .array(format.map(\.json)) }
        if !items.isEmpty { object["items"] = .array(items.map(\.json)) }
        return .object(object)
    }

    /// The rule's line of the policy text at `depth` spaces, its items' lines below it (the reference's text).
    func outline(depth: Int) -> [String] {
        [String(repeating: " ", count: depth) + "* " + filledMessage] + items.flatMap { $0.outline(depth: depth + 1) }
    }

    /// `message` with each `%d` or `%s` replaced by the next of `arguments`, read as UTF-8 (the placeholders are
    /// ASCII).
    private static func filling(_ message: String, with arguments: [Argument]) -> String {
        let utf8 = message.utf8
        var result = ""
        var remaining = arguments.makeIterator()
        var copied = utf8.startIndex
        var index = copied
        while index < utf8.endIndex {
            let kind = utf8.index(after: index)
            if utf8[index] == UInt8(ascii: "%"), kind < utf8.endIndex,
                utf8[kind] == UInt8(ascii: "d") || utf8[kind] == UInt8(ascii: "s"), let argument = remaining.next()
            {
                result += message[copied..<index] + argument.text
                index = utf8.index(after: kind)
                copied = index
            } else {
                index = kind
            }
        }
        return result + message[copied...]
    }
}
