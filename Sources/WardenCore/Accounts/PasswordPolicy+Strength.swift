/// A type of characters of the strength rules (SPEC §15.1): the reference platform's ASCII classes.
enum CharacterClass: CaseIterable, Sendable {
    case lowerCase, upperCase, numbers, specialCharacters

    /// The class of one UTF-8 byte: `a-z`, `A-Z`, `0-9`, or the space and ASCII punctuation (OWASP's special
    /// characters); nil for anything else, including every byte of a non-ASCII character.
    static func of(_ byte: UInt8) -> CharacterClass? {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"): .lowerCase
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): .upperCase
        case UInt8(ascii: "0")...UInt8(ascii: "9"): .numbers
        case 0x20...0x2F, 0x3A...0x40, 0x5B...0x60, 0x7B...0x7E: .specialCharacters
        default: nil
        }
    }

    /// The class's bit in ``PasswordTally/classes``.
    var bit: UInt8 {
        switch self {
        case .lowerCase: 1
        case .upperCase: 2
        case .numbers: 4
        case .specialCharacters: 8
        }
    }

    /// The class as an item of a `shouldContain` or `containsAtLeast` rule, verified when the password has one.
    func rule(verified: Bool) -> PasswordRule {
        switch self {
        case .lowerCase: PasswordRule(code: "lowerCase", message: "lower case letters (a-z)", verified: verified)
        case .upperCase: PasswordRule(code: "upperCase", message: "upper case letters (A-Z)", verified: verified)
        case .numbers: PasswordRule(code: "numbers", message: "numbers (i.e. 0-9)", verified: verified)
        case .specialCharacters:
            PasswordRule(code: "specialCharacters", message: "special characters (e.g. !@#$%^&*)", verified: verified)
        }
    }
}

/// What the strength rules read of a password, in one pass over its UTF-8 bytes and one over its characters.
struct PasswordTally {
    /// The characters as a person sees them (extended grapheme clusters).
    private(set) var characters = 0
    /// The UTF-8 bytes, which bcrypt reads.
    let bytes: Int
    /// The ``CharacterClass/bit`` of each class the password has.
    private(set) var classes: UInt8 = 0
    /// The most times one character follows itself.
    private(set) var longestRun = 0

    init(_ password: String) {
        bytes = password.utf8.count
        for byte in password.utf8 {
            classes |= CharacterClass.of(byte)?.bit ?? 0
        }
        var previous: Character?
        var run = 0
        for character in password {
            characters += 1
            run = character == previous ? run + 1 : 1
            previous = character
            longestRun = max(longestRun, run)
        }
    }

    func has(_ characterClass: CharacterClass) -> Bool { classes & characterClass.bit != 0 }
}

/// What a strength level and `min_length` require (SPEC §15.1), as `password-sheriff` defines the levels.
struct StrengthRequirements: Sendable, Equatable {
    /// The types of characters a level requires.
    enum Composition: Sendable, Equatable {
        /// Any characters (`none`, `low`).
        case any
        /// Every one of the classes (`fair`: the reference's `contains` rule).
        case all([CharacterClass])
        /// At least `count` of the classes (`good`, `excellent`: `containsAtLeast`).
        case atLeast(Int, of: [CharacterClass])
    }

    /// The fewest characters: the level's, or `min_length` when greater.
    let minLength: Int
    let composition: Composition
    /// The most times a character may follow itself, when the level limits it.
    let maxIdentical: Int?

    /// The requirements of `strength`, a name ``PasswordPolicy/init(options:)`` accepted (any other is held to
    /// ``PasswordPolicy/Strength/good``).
    init(strength: PasswordPolicy.Strength, minLength: Int?) {
        let letters: [CharacterClass] = [.lowerCase, .upperCase, .numbers]
        let level: (minLength: Int, composition: Composition, maxIdentical: Int?) =
            switch strength {
            case .none: (1, .any, nil)
            case .low: (6, .any, nil)
            case .fair: (8, .all(letters), nil)
            case .excellent: (10, .atLeast(3, of: CharacterClass.allCases), 2)
            default: (8, .atLeast(3, of: CharacterClass.allCases), nil)
            }
        self.minLength = max(level.minLength, minLength ?? 0)
        self.composition = level.composition
        self.maxIdentical = level.maxIdentical
    }

    /// Whether a password of this tally meets every strength rule, the 72-byte maximum included.
    func isMet(by tally: PasswordTally) -> Bool {
        hasLength(tally) && hasComposition(tally) && hasNoLongRun(tally)
            && tally.bytes <= PasswordPolicy.maximumBytes
    }

    /// The strength rules checked against a password of this tally, as the reference reports them: the length,
    /// the types of characters, identical characters, in the level's order, then `maxLength` only when the
    /// password is longer than 72 bytes.
    func rules(for tally: PasswordTally) -> [PasswordRule] {
        var rules = [
            minLength == 1
                ? PasswordRule(code: "nonEmpty", message: "Non-empty password required", verified: hasLength(tally))
                : PasswordRule(
                    code: "lengthAtLeast", message: "At least %d characters in length", format: [.number(minLength)],
                    verified: hasLength(tally))
        ]
        switch composition {
        case .any: break
        case .all(let classes):
            rules.append(
                PasswordRule(
                    code: "shouldContain", message: "Should contain:",
                    items: classes.map { $0.rule(verified: tally.has($0)) }, verified: hasComposition(tally)))
        case .atLeast(let count, let classes):
            rules.append(
                PasswordRule(
                    code: "containsAtLeast", message: "Contain at least %d of the following %d types of characters:",
                    format: [.number(count), .number(classes.count)],
                    items: classes.map { $0.rule(verified: tally.has($0)) }, verified: hasComposition(tally)))
        }
        if let maxIdentical {
            rules.append(
                PasswordRule(
                    code: "identicalChars",
                    message: #"No more than %d identical characters in a row (e.g., "%s" not allowed)"#,
                    format: [.number(maxIdentical), .text(String(repeating: "a", count: maxIdentical + 1))],
                    verified: hasNoLongRun(tally)))
        }
        if tally.bytes > PasswordPolicy.maximumBytes {
            rules.append(
                PasswordRule(
                    code: "maxLength", message: "Maximum password length exceeded",
                    format: [.number(PasswordPolicy.maximumBytes)], verified: false,
                    sentence: "At most \(PasswordPolicy.maximumBytes) bytes in length (letters with accents and "
                        + "symbols count as 2 to 4)"))
        }
        return rules
    }

    private func hasLength(_ tally: PasswordTally) -> Bool { tally.characters >= minLength }

    private func hasComposition(_ tally: PasswordTally) -> Bool {
        switch composition {
        case .any: true
        case .all(let classes): classes.allSatisfy(tally.has)
        case .atLeast(let count, let classes): classes.count(where: tally.has) >= count
        }
    }

    private func hasNoLongRun(_ tally: PasswordTally) -> Bool { maxIdentical.map { tally.longestRun <= $0 } ?? true }
}
