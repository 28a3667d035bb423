import WardenCore
import WardenWire

/// The database connection's settings on its console page (SPEC §14, §15.1): sign-up and the password policy,
/// saved as the options of `PATCH /api/v2/connections/{id}` (the same validation) with every other stored option
/// kept.
enum ConsoleDatabaseSettings {
    static let form = ConsoleForm([
        .init(
            legend: "Sign-up and passwords",
            fields: [
                ConsoleField(
                    "disable_signup", "Turn off sign-up (no “Sign up” link, /dbconnections/signup refused)", .checkbox),
                ConsoleField(
                    "passwordPolicy", "Password strength",
                    .select(ConsoleField.options(PasswordPolicy.Strength.defined.map(\.rawValue))),
                    hint: "none: 1 character; low: 6; fair: 8 with lower, upper and digits; good: 8 with three of "
                        + "lower, upper, digits, special; excellent: 10 with three of four, no character thrice in a row."
                ),
                ConsoleField(
                    "min_length", "Minimum length (optional)", .number(),
                    hint: "1 to 72; raises the strength's minimum."),
                ConsoleField(
                    "password_history", "Refuse the last N passwords (optional)", .number(),
                    hint: "1 to 24, the current password included; empty: no history."),
                ConsoleField(
                    "password_no_personal_info", "Refuse passwords containing the name, nickname or e-mail", .checkbox),
                ConsoleField(
                    "password_dictionary", "Refuse the 10,000 most common passwords and these words", .checkbox),
                ConsoleField("dictionary", "Forbidden words (optional)", .commaSeparated),
            ])
    ])

    /// The form's values for the stored `options`.
    static func values(_ options: [String: JSONValue]) -> [String: String] {
        var values: [String: String] = [
            "passwordPolicy": options["passwordPolicy"]?.stringValue ?? PasswordPolicy.Strength.good.rawValue
        ]
        func on(_ flag: Bool?) -> String? { flag == true ? "on" : nil }
        values["disable_signup"] = on(options["disable_signup"]?.boolValue)
        values["min_length"] = options["password_complexity_options"]?["min_length"]?.intValue.map(String.init)
        if options["password_history"]?["enable"]?.boolValue == true {
            values["password_history"] = String(
                options["password_history"]?["size"]?.intValue ?? PasswordPolicy.defaultHistorySize)
        }
        values["password_no_personal_info"] = on(options["password_no_personal_info"]?["enable"]?.boolValue)
        values["password_dictionary"] = on(options["password_dictionary"]?["enable"]?.boolValue)
        values["dictionary"] = (options["password_dictionary"]?["dictionary"]?.arrayValue ?? [])
            .compactMap(\.stringValue).joined(separator: ", ")
        return values
    }

    /// The stored `options` with the form's settings.
    static func options(_ stored: [String: JSONValue], _ input: (String) -> String?) -> [String: JSONValue] {
        let body = form.body(from: input)
        var options = stored
        options["disable_signup"] = .bool(body["disable_signup"]?.boolValue ?? false)
        options["passwordPolicy"] = body["passwordPolicy"] ?? .string(PasswordPolicy.Strength.good.rawValue)
        if let minLength = body["min_length"], !minLength.isNull {
            options["password_complexity_options"] = ["min_length": minLength]
        } else {
            options.removeValue(forKey: "password_complexity_options")
        }
        if let size = body["password_history"], !size.isNull {
            options["password_history"] = ["enable": true, "size": size]
        } else {
            options["password_history"] = ["enable": false]
        }
        options["password_no_personal_info"] = ["enable": .bool(body["password_no_personal_info"]?.boolValue ?? false)]
        options["password_dictionary"] = [
            "enable": .bool(body["password_dictionary"]?.boolValue ?? false),
            "dictionary": body["dictionary"].flatMap { $0.isNull ? nil : $0 } ?? .array([]),
        ]
        return options
    }
}
