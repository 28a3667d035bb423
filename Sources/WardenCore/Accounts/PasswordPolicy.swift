public import WardenWire

/// The password policy of a database connection (SPEC §15.1 "Password policy"), read from the connection's
/// `options` under the reference platform's names (``init(options:)``) and applied to a new password by
/// ``check(_:personalInfo:)`` at sign-up, reset and in the Management API.
///
/// The strength levels and their rules are those of the reference platform's open-source `password-sheriff`
/// library, so a refusal carries the same structured rules and policy text its SDKs show. Lengths count
/// characters as a person sees them (extended grapheme clusters; the reference counts UTF-16 code units, the same
/// for ASCII and most letters), the 72-byte bcrypt maximum counts UTF-8 bytes, and the character classes are the
/// reference's ASCII ones: `a-z`, `A-Z`, `0-9`, and the space and ASCII punctuation (OWASP's special characters).
///
/// The password history is not checked here: it compares the password with stored bcrypt hashes, which is the
/// server's work. ``historySize`` says how many to compare and ``historyViolation()`` is the refusal to give.
public struct PasswordPolicy: Sendable, Equatable {
    /// `passwordPolicy`: the strength level (``Strength/good`` when absent).
    public let strength: Strength
    /// `password_complexity_options.min_length` (1–72), which raises the level's minimum length; nil when absent.
    public let minLength: Int?
    /// `password_history.size` when `password_history.enable`: how many recent passwords, the current one
    /// included, a new password must differ from; nil when the history is off.
    public let historySize: Int?
    /// `password_no_personal_info.enable`: whether a password may not contain the person's e-mail local part,
    /// name or nickname.
    public let refusesPersonalInfo: Bool
    /// `password_dictionary.dictionary`, lower-cased, when `password_dictionary.enable` (the 10,000 most common
    /// passwords are refused as well); nil when the dictionary is off.
    public let dictionary: Set<String>?

    /// What ``strength`` and ``minLength`` require of a password.
    let requirements: StrengthRequirements

    /// The policy of a connection with no password options: ``Strength/good``, nothing else.
    public init() {
        self.init(strength: .good, minLength: nil, historySize: nil, refusesPersonalInfo: false, dictionary: nil)
    }

    /// A policy of already validated options (a known strength, lengths within their ranges).
    init(strength: Strength, minLength: Int?, historySize: Int?, refusesPersonalInfo: Bool, dictionary: Set<String>?) {
        self.strength = strength
        self.minLength = minLength
        self.historySize = historySize
        self.refusesPersonalInfo = refusesPersonalInfo
        self.dictionary = dictionary
        self.requirements = StrengthRequirements(strength: strength, minLength: minLength)
    }

    /// Why the policy refuses `password`, or nil when it accepts it (SPEC §15.1): the strength rules (the level,
    /// ``minLength`` and the 72-byte maximum) first, then the dictionary (an exact match, ignoring case, of a
    /// listed word or a common password), then the personal information. The history is the server's to check.
    public func check(_ password: String, personalInfo: PersonalInfo) -> Violation? {
        let tally = PasswordTally(password)
        guard requirements.isMet(by: tally) else { return .strength(requirements.rules(for: tally)) }
        guard dictionary != nil || refusesPersonalInfo else { return nil }
        let lowercased = password.lowercased()
        if let dictionary, dictionary.contains(lowercased) || CommonPasswords.words.contains(lowercased) {
            return .dictionary
        }
        if refusesPersonalInfo, personalInfo.isContained(in: lowercased) { return .personalInfo }
        return nil
    }

    /// The refusal of a password the history holds (`PasswordHistoryError`), for the server, which compares the
    /// password with the last ``historySize`` hashes.
    public static func historyViolation() -> Violation { .history }
}

extension PasswordPolicy {
    /// A `passwordPolicy` level (SPEC §15.1): an open set of names, of which ``init(options:)`` accepts the five
    /// the reference platform defines.
    public struct Strength: OpenStringValue {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// At least 1 character.
        public static let none: Strength = "none"
        /// At least 6 characters.
        public static let low: Strength = "low"
        /// At least 8 characters, with lower case letters, upper case letters and digits.
        public static let fair: Strength = "fair"
        /// At least 8 characters, with three of lower case letters, upper case letters, digits and special
        /// characters: the default.
        public static let good: Strength = "good"
        /// At least 10 characters, three of the four types of ``good``, no character more than twice in a row.
        public static let excellent: Strength = "excellent"

        /// The levels the reference platform defines, weakest first.
        public static let defined: [Strength] = [.none, .low, .fair, .good, .excellent]
    }

    /// What a password may not contain when ``refusesPersonalInfo`` (SPEC §15.1 `password_no_personal_info`).
    public struct PersonalInfo: Sendable, Equatable {
        /// The e-mail address; only its local part (before the last `@`) counts.
        public var email: String?
        public var name: String?
        public var nickname: String?

        public init(email: String? = nil, name: String? = nil, nickname: String? = nil) {
            self.email = email
            self.name = name
            self.nickname = nickname
        }

        /// The shortest value or word refused inside a password: shorter ones (initials, "Li") would refuse
        /// too many passwords for what they reveal.
        static let minimumFragmentLength = 3

        /// The lower-cased texts a password may not contain: the words of the e-mail's local part, of the name
        /// and of the nickname (split at anything but letters and digits, so `jane.doe` gives `jane` and `doe`)
        /// of at least ``minimumFragmentLength`` characters, or the whole value when it has no such word but is
        /// that long itself (`Li Na`); empty and shorter values give nothing.
        var fragments: [String] {
            var localPart: Substring?
            if let email { localPart = email.lastIndex(of: "@").map { email[..<$0] } ?? email[...] }
            var fragments: [String] = []
            for value in [localPart, name?[...], nickname?[...]] {
                guard let value = value?.lowercased() else { continue }
                let words = value.unicodeScalars.split(whereSeparator: Self.separatesWords).map(String.init)
                    .filter { $0.count >= Self.minimumFragmentLength }
                // A password that contains the whole value contains each of its words.
                if !words.isEmpty {
                    fragments += words
                } else if value.count >= Self.minimumFragmentLength {
                    fragments.append(value)
                }
            }
            return fragments
        }

        /// Whether `scalar` is neither a letter nor a digit (an ASCII test first: Unicode properties are slow).
        private static func separatesWords(_ scalar: Unicode.Scalar) -> Bool {
            guard scalar.isASCII else { return !scalar.properties.isAlphabetic && scalar.properties.numericType == nil }
            return !(("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar))
        }

        /// Whether a lower-cased password contains one of the ``fragments``, compared as UTF-8 bytes (a valid
        /// UTF-8 sequence only matches at character boundaries), much faster than comparing characters.
        func isContained(in lowercasedPassword: String) -> Bool {
            let password = Array(lowercasedPassword.utf8)
            return fragments.contains { fragment in
                let fragment = Array(fragment.utf8)
                guard fragment.count <= password.count else { return false }
                return (0...(password.count - fragment.count)).contains { start in
                    password[start..<(start + fragment.count)].elementsEqual(fragment)
                }
            }
        }
    }
}
