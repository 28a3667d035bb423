import Testing
import WardenCore
import WardenWire

/// ``PasswordPolicy``: the password policy of SPEC §15.1, its levels, `min_length`, the 72-byte maximum, personal
/// information, the dictionary, the options it is read from and the reference's rules of a refusal.
@Suite("PasswordPolicy")
struct PasswordPolicyTests {
    static let nobody = PasswordPolicy.PersonalInfo()

    /// The policy of `options`, which the test expects to be valid.
    static func policy(_ options: [String: JSONValue]) throws -> PasswordPolicy {
        try PasswordPolicy(options: options)
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var strength: PasswordPolicy.Strength
        var password: String
        var accepted: Bool
        var testDescription: String { "\(strength): \(password.debugDescription) \(accepted ? "accepted" : "refused")" }
    }

    /// Each level at its minimum length and character classes; the classes are ASCII only.
    static let levels: [Case] = [
        Case(strength: .none, password: "", accepted: false),
        Case(strength: .none, password: "a", accepted: true),
        Case(strength: .low, password: "abcde", accepted: false),
        Case(strength: .low, password: "abcdef", accepted: true),
        Case(strength: .fair, password: "Abcdef1", accepted: false),
        Case(strength: .fair, password: "Abcdef12", accepted: true),
        Case(strength: .fair, password: "abcdef12", accepted: false),
        Case(strength: .fair, password: "ABCDEF12", accepted: false),
        Case(strength: .fair, password: "Abcdefg!", accepted: false),
        Case(strength: .good, password: "Abcdef1", accepted: false),
        Case(strength: .good, password: "Abcdef12", accepted: true),
        Case(strength: .good, password: "abcdef1!", accepted: true),
        Case(strength: .good, password: "abc def1", accepted: true),
        Case(strength: .good, password: "ABCDEF!1", accepted: true),
        Case(strength: .good, password: "abcdefg1", accepted: false),
        Case(strength: .good, password: "ABCDEFG!", accepted: false),
        Case(strength: .good, password: "äöüÄÖÜ12", accepted: false),
        Case(strength: .excellent, password: "Abcdefg12", accepted: false),
        Case(strength: .excellent, password: "Abcdefgh12", accepted: true),
        Case(strength: .excellent, password: "abcdefgh12", accepted: false),
        Case(strength: .excellent, password: "Abbcdefg12", accepted: true),
        Case(strength: .excellent, password: "Abbbcdefg12", accepted: false),
        Case(strength: .excellent, password: "Abcdefg!!!", accepted: false),
        Case(strength: .excellent, password: "Abcdefg!!2", accepted: true),
    ]

    @Test(arguments: levels)
    func level(_ test: Case) throws {
        let policy = try Self.policy(["passwordPolicy": .string(test.strength.rawValue)])
        let violation = policy.check(test.password, personalInfo: Self.nobody)
        #expect((violation == nil) == test.accepted)
        #expect(violation.map { $0.name == .strength } ?? true)
    }

    /// `min_length` raises the level's minimum and never lowers it.
    @Test(arguments: [
        (PasswordPolicy.Strength.good, 12, "Abcdefgh12!", false), (.good, 12, "Abcdefgh12!x", true),
        (.good, 4, "Abc1!", false), (.good, 4, "Abcde1!x", true), (.none, 3, "ab", false), (.none, 3, "abc", true),
        (.excellent, 11, "Abcdefgh12", false), (.excellent, 11, "Abcdefgh123", true),
    ])
    func minLength(strength: PasswordPolicy.Strength, minLength: Int, password: String, accepted: Bool) throws {
        let policy = try Self.policy([
            "passwordPolicy": .string(strength.rawValue),
            "password_complexity_options": ["min_length": .number(Double(minLength))],
        ])
        #expect((policy.check(password, personalInfo: Self.nobody) == nil) == accepted)
    }

    /// At most 72 UTF-8 bytes at every level, whatever the number of characters.
    @Test(arguments: [
        (PasswordPolicy.Strength.none, String(repeating: "a", count: 72), true),
        (.none, String(repeating: "a", count: 73), false),
        (.good, "Aa1!" + String(repeating: "x", count: 68), true),
        (.good, "Aa1!" + String(repeating: "x", count: 69), false),
        (.good, "Aa1!" + String(repeating: "é", count: 34), true),
        (.good, "Aa1!" + String(repeating: "é", count: 35), false),
        (.low, String(repeating: "😀", count: 18), true),
        (.low, String(repeating: "😀", count: 18) + "a", false),
    ])
    func maximumBytes(strength: PasswordPolicy.Strength, password: String, accepted: Bool) throws {
        let violation = try Self.policy(["passwordPolicy": .string(strength.rawValue)])
            .check(password, personalInfo: Self.nobody)
        #expect((violation == nil) == accepted)
        if let violation {
            #expect(violation.name == .strength)
            #expect(violation.message == "Password is too long")
            #expect(violation.rules.last?["code"] == "maxLength")
            #expect(violation.rules.last?["format"] == [72])
        }
    }

    /// Refused inside a password, ignoring case: the words of the e-mail's local part, the name and the nickname,
    /// of 3 characters or more; only when `password_no_personal_info` is enabled.
    @Test(arguments: [
        ("Jane2024!x", false), ("xxDOE2024!", false), ("Zorro#2024", false), ("Example2024!", true),
        ("Jd2024!xyz", true), ("Mylina2024!", true), ("Li na2024!", false),
    ])
    func personalInfo(password: String, accepted: Bool) throws {
        let person = PasswordPolicy.PersonalInfo(email: "jane.doe@example.com", name: "Li Na", nickname: "Zorro")
        let jd = PasswordPolicy.PersonalInfo(email: "jane.doe@example.com", name: "Li Na", nickname: "jd")
        let policy = try Self.policy(["password_no_personal_info": ["enable": true]])
        let violation = policy.check(password, personalInfo: password.hasPrefix("Jd") ? jd : person)
        #expect((violation == nil) == accepted)
        #expect(violation.map { $0.name == .noUserInfo } ?? true)
        #expect(try Self.policy([:]).check(password, personalInfo: person) == nil)
    }

    /// The connection's words and the 10,000 common passwords, matched whole and ignoring case; only when
    /// `password_dictionary` is enabled.
    @Test(arguments: [
        ("WARDEN", false), ("warden", false), ("password1", false), ("QWERTY123", false), ("123456", false),
        ("dragon", false), ("warden1", true), ("my password1", true),
    ])
    func dictionary(password: String, accepted: Bool) throws {
        let policy = try Self.policy([
            "passwordPolicy": "none", "password_dictionary": ["enable": true, "dictionary": ["Warden"]],
        ])
        let violation = policy.check(password, personalInfo: Self.nobody)
        #expect((violation == nil) == accepted)
        #expect(violation == nil || violation?.description == "PasswordDictionaryError: Password is too common")
        #expect(try Self.policy(["passwordPolicy": "none"]).check(password, personalInfo: Self.nobody) == nil)
    }

    /// A common password that is strong enough for `good` is still refused by the dictionary.
    @Test func commonPasswordOfGoodStrength() throws {
        let policy = try Self.policy(["password_dictionary": ["enable": true]])
        #expect(policy.check("P@ssw0rd", personalInfo: Self.nobody)?.name == .dictionary)
        #expect(policy.check("Password1", personalInfo: Self.nobody)?.name == .dictionary)
        #expect(policy.check("Wardens1!", personalInfo: Self.nobody) == nil)
    }

    /// Absent options are the defaults; the history's size is nil when it is off.
    @Test func options() throws {
        #expect(try Self.policy([:]) == PasswordPolicy())
        #expect(try Self.policy(["passwordPolicy": nil, "password_history": nil]) == PasswordPolicy())
        let defaults = PasswordPolicy()
        #expect(defaults.strength == .good)
        #expect(defaults.minLength == nil && defaults.historySize == nil && defaults.dictionary == nil)
        #expect(!defaults.refusesPersonalInfo)
        #expect(try Self.policy(["password_history": ["enable": true, "size": 24]]).historySize == 24)
        #expect(try Self.policy(["password_history": ["enable": true]]).historySize == 5)
        #expect(try Self.policy(["password_history": ["enable": false, "size": 3]]).historySize == nil)
        #expect(try Self.policy(["password_dictionary": ["enable": true]]).dictionary == [])
        #expect(
            try Self.policy(["password_dictionary": ["enable": true, "dictionary": ["Ab", "aB"]]]).dictionary == ["ab"])
        #expect(try Self.policy(["password_complexity_options": ["min_length": 72]]).minLength == 72)
    }

    /// An invalid option is refused, naming it.
    @Test(
        arguments: [
            (["passwordPolicy": "strong"], "passwordPolicy"), (["passwordPolicy": 3], "passwordPolicy"),
            (["password_complexity_options": "8"], "password_complexity_options"),
            (["password_complexity_options": ["min_length": 0]], "password_complexity_options.min_length"),
            (["password_complexity_options": ["min_length": 73]], "password_complexity_options.min_length"),
            (["password_complexity_options": ["min_length": 8.5]], "password_complexity_options.min_length"),
            (["password_complexity_options": ["min_length": "8"]], "password_complexity_options.min_length"),
            (["password_history": ["enable": "yes"]], "password_history.enable"),
            (["password_history": ["enable": true, "size": 0]], "password_history.size"),
            (["password_history": ["enable": true, "size": 25]], "password_history.size"),
            (["password_history": ["enable": false, "size": 25]], "password_history.size"),
            (["password_no_personal_info": true], "password_no_personal_info"),
            (["password_no_personal_info": ["enable": 1]], "password_no_personal_info.enable"),
            (["password_dictionary": ["enable": true, "dictionary": "warden"]], "password_dictionary.dictionary"),
            (["password_dictionary": ["enable": true, "dictionary": [1]]], "password_dictionary.dictionary"),
            (["password_dictionary": ["enable": true, "dictionary": [""]]], "password_dictionary.dictionary"),
            (
                ["password_dictionary": ["dictionary": .array(Array(repeating: "w", count: 201))]],
                "password_dictionary.dictionary"
            ),
            (
                ["password_dictionary": ["dictionary": [.string(String(repeating: "w", count: 51))]]],
                "password_dictionary.dictionary"
            ),
        ] as [([String: JSONValue], String)])
    func invalidOption(options: [String: JSONValue], option: String) {
        #expect {
            try PasswordPolicy(options: options)
        } throws: { error in
            guard let error = error as? PasswordPolicy.OptionError else { return false }
            return error.option == option && error.message.hasPrefix(option + " ")
        }
    }

    /// A `good` refusal carries the reference's rules, its policy text and the broken rule.
    @Test func goodRefusal() throws {
        let violation = try #require(PasswordPolicy().check("abcdefgh", personalInfo: Self.nobody))
        #expect(violation.name == .strength)
        #expect(violation.description == "PasswordStrengthError: Password is too weak")
        let rules: [JSONValue] = [
            ["message": "At least %d characters in length", "format": [8], "code": "lengthAtLeast", "verified": true],
            [
                "message": "Contain at least %d of the following %d types of characters:", "code": "containsAtLeast",
                "format": [3, 4],
                "items": [
                    ["message": "lower case letters (a-z)", "code": "lowerCase", "verified": true],
                    ["message": "upper case letters (A-Z)", "code": "upperCase", "verified": false],
                    ["message": "numbers (i.e. 0-9)", "code": "numbers", "verified": false],
                    ["message": "special characters (e.g. !@#$%^&*)", "code": "specialCharacters", "verified": false],
                ],
                "verified": false,
            ],
        ]
        #expect(violation.rules == rules)
        #expect(violation.ruleReport == ["rules": .array(rules), "verified": false])
        #expect(
            violation.policyText == """
                * At least 8 characters in length
                * Contain at least 3 of the following 4 types of characters:
                 * lower case letters (a-z)
                 * upper case letters (A-Z)
                 * numbers (i.e. 0-9)
                 * special characters (e.g. !@#$%^&*)
                """)
        #expect(
            violation.brokenRuleMessages == [
                "Contain at least 3 of the following 4 types of characters: lower case letters (a-z), upper case "
                    + "letters (A-Z), numbers (i.e. 0-9), special characters (e.g. !@#$%^&*)"
            ])
    }

    /// The other levels' rules: `none`'s non-empty rule, `fair`'s `shouldContain`, `excellent`'s identical
    /// characters.
    @Test func otherLevelRules() throws {
        let none = try #require(try Self.policy(["passwordPolicy": "none"]).check("", personalInfo: Self.nobody))
        #expect(none.rules == [["message": "Non-empty password required", "code": "nonEmpty", "verified": false]])
        #expect(none.policyText == "* Non-empty password required")

        let fair = try #require(
            try Self.policy(["passwordPolicy": "fair"]).check("abcdefgh", personalInfo: Self.nobody))
        #expect(fair.rules.last?["code"] == "shouldContain")
        #expect(fair.rules.last?["items"]?.arrayValue?.count == 3)
        #expect(
            fair.brokenRuleMessages == [
                "Should contain: lower case letters (a-z), upper case letters (A-Z), numbers (i.e. 0-9)"
            ])

        let excellent = try #require(
            try Self.policy(["passwordPolicy": "excellent"]).check("Abbbcdefg12", personalInfo: Self.nobody))
        #expect(
            excellent.rules.last
                == [
                    "message": #"No more than %d identical characters in a row (e.g., "%s" not allowed)"#,
                    "code": "identicalChars", "format": [2, "aaa"], "verified": false,
                ])
        #expect(
            excellent.brokenRuleMessages == [#"No more than 2 identical characters in a row (e.g., "aaa" not allowed)"#]
        )
        #expect(
            excellent.policyText.hasSuffix(#"* No more than 2 identical characters in a row (e.g., "aaa" not allowed)"#)
        )
    }

    /// The history's refusal, which the server gives after comparing the stored hashes.
    @Test func historyViolation() {
        let violation = PasswordPolicy.historyViolation()
        #expect(violation.name == .history)
        #expect(violation.description == "PasswordHistoryError: Password has previously been used")
        #expect(violation.ruleReport["verified"] == false)
        #expect(violation.brokenRuleMessages == ["Not one of your recent passwords"])
    }
}
