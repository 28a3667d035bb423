public import WardenWire

extension PasswordPolicy {
    /// Why a connection's password options are not valid, naming the option (`password_history.size`), so that
    /// the Management API answers 400 `invalid_body` saying which (SPEC §15.1).
    public struct OptionError: Error, Sendable, Equatable, CustomStringConvertible {
        /// The option's path in `options`, e.g. `password_history.size`.
        public let option: String
        /// A sentence starting with the option's path, e.g. "password_history.size must be an integer from 1
        /// to 24".
        public let message: String

        public var description: String { message }

        init(_ option: String, _ requirement: String) {
            self.option = option
            self.message = "\(option) \(requirement)"
        }
    }

    /// The greatest `password_complexity_options.min_length`: the bcrypt maximum, in bytes.
    public static let maximumBytes = 72
    /// The history size used when `password_history` is enabled without a `size` (the reference platform's
    /// default).
    public static let defaultHistorySize = 5
    /// The greatest `password_history.size`.
    public static let maximumHistorySize = 24
    /// The most words `password_dictionary.dictionary` may list, and the longest word (the reference platform's
    /// limits).
    public static let maximumDictionaryWords = 200
    public static let maximumDictionaryWordLength = 50

    /// Reads the policy from a database connection's `options` (SPEC §15.1): `passwordPolicy`,
    /// `password_complexity_options.min_length`, `password_history` (`enable`, `size`),
    /// `password_no_personal_info.enable` and `password_dictionary` (`enable`, `dictionary`). An absent or
    /// `null` option takes its default (``Strength/good``, no minimum length, the rest off); `size` and
    /// `dictionary` are checked even when their option is not enabled; other members of `options` are ignored.
    public init(options: [String: JSONValue]) throws(OptionError) {
        let strength = try Self.strength(options["passwordPolicy"])
        let complexity = try Self.object(options, "password_complexity_options")
        let minLength = try Self.integer(
            complexity?["min_length"], "password_complexity_options.min_length", in: 1...Self.maximumBytes)

        let history = try Self.object(options, "password_history")
        let historySize =
            try Self.integer(history?["size"], "password_history.size", in: 1...Self.maximumHistorySize)
            ?? Self.defaultHistorySize
        let personalInfo = try Self.object(options, "password_no_personal_info")
        let dictionary = try Self.object(options, "password_dictionary")
        let words = try Self.words(dictionary?["dictionary"])

        self.init(
            strength: strength, minLength: minLength,
            historySize: try Self.flag(history, "password_history") ? historySize : nil,
            refusesPersonalInfo: try Self.flag(personalInfo, "password_no_personal_info"),
            dictionary: try Self.flag(dictionary, "password_dictionary") ? words : nil)
    }

    private static func strength(_ value: JSONValue?) throws(OptionError) -> Strength {
        guard let value, !value.isNull else { return .good }
        guard let name = value.stringValue, Strength.defined.contains(Strength(rawValue: name)) else {
            throw OptionError(
                "passwordPolicy", "must be one of \(Strength.defined.map(\.rawValue).joined(separator: ", "))")
        }
        return Strength(rawValue: name)
    }

    /// The object `options[name]`, nil when absent or `null`.
    private static func object(
        _ options: [String: JSONValue], _ name: String
    ) throws(OptionError) -> [String: JSONValue]? {
        guard let value = options[name], !value.isNull else { return nil }
        guard let object = value.objectValue else { throw OptionError(name, "must be an object") }
        return object
    }

    /// The object's `enable`, false when it or the object is absent or `null`.
    private static func flag(_ object: [String: JSONValue]?, _ name: String) throws(OptionError) -> Bool {
        guard let value = object?["enable"], !value.isNull else { return false }
        guard let flag = value.boolValue else { throw OptionError("\(name).enable", "must be a boolean") }
        return flag
    }

    /// An integer within `range`, nil when absent or `null`.
    private static func integer(
        _ value: JSONValue?, _ option: String, in range: ClosedRange<Int>
    ) throws(OptionError) -> Int? {
        guard let value, !value.isNull else { return nil }
        guard let integer = value.intValue, range.contains(integer) else {
            throw OptionError(option, "must be an integer from \(range.lowerBound) to \(range.upperBound)")
        }
        return integer
    }

    /// `password_dictionary.dictionary`, lower-cased: an array of at most ``maximumDictionaryWords`` non-empty
    /// strings of at most ``maximumDictionaryWordLength`` characters; empty when absent or `null`.
    private static func words(_ value: JSONValue?) throws(OptionError) -> Set<String> {
        guard let value, !value.isNull else { return [] }
        let option = "password_dictionary.dictionary"
        guard let array = value.arrayValue, array.count <= maximumDictionaryWords else {
            throw OptionError(option, "must be an array of at most \(maximumDictionaryWords) words")
        }
        var words = Set<String>()
        for element in array {
            guard let word = element.stringValue, (1...maximumDictionaryWordLength).contains(word.count) else {
                throw OptionError(
                    option, "must hold strings of 1 to \(maximumDictionaryWordLength) characters")
            }
            words.insert(word.lowercased())
        }
        return words
    }
}
