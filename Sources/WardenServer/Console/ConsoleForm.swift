import Foundation
import WardenCore
import WardenWire

/// A field of a console form (SPEC §14), bound to one property of a Management API request body by its path
/// (`name`, `jwt_configuration.alg`). The console never validates a value itself: the form becomes the JSON
/// object the Management API would receive (``ConsoleForm/body(from:)``), the Management controller's shared
/// function validates it, and its refusal, which names the property, comes back next to this field.
struct ConsoleField: Sendable {
    /// How a property's value is typed in, and becomes JSON.
    enum Kind: Sendable {
        /// A one-line string, trimmed.
        case text(whenEmpty: Empty = .null)
        /// A password: never shown again, not even after a refusal; empty → the property left out.
        case password
        /// A whole number (what is not one is sent as a string, for the validation to name).
        case number(whenEmpty: Empty = .null)
        /// A multi-line string (a rule's condition).
        case textarea
        /// An array: of strings, separated by spaces or new lines (URLs, scopes); or with `keys`, of objects, one
        /// a line, whose members are the line's first word and its rest (`read:items Read the items` →
        /// `{"value": "read:items", "description": "Read the items"}`).
        case lines(keys: [String] = [])
        /// An array of strings typed on one line, separated by commas (a connection's domain aliases, SPEC §15).
        case commaSeparated
        /// One of `options`; the option with the empty value → `null`.
        case select([Option])
        /// A boolean.
        case checkbox
        /// An array of strings, each one of `options`, one checkbox each.
        case checkboxes([Option])
    }

    /// What an empty text or number field sends: `null` (the property removed or reset to its default), `""`
    /// (a required property: the validation names it as missing) or nothing (the property left as it is).
    enum Empty: Sendable {
        case null
        case emptyString
        case omitted

        var json: JSONValue? {
            switch self {
            case .null: .null
            case .emptyString: .string("")
            case .omitted: nil
            }
        }
    }

    /// A choice of a select or of checkboxes: the value sent and what the admin reads.
    struct Option: Sendable {
        var value: String
        var label: String
    }

    var name: String
    var label: String
    var kind: Kind
    var hint: String?

    init(_ name: String, _ label: String, _ kind: Kind = .text(), hint: String? = nil) {
        self.name = name
        self.label = label
        self.kind = kind
        self.hint = hint
    }

    /// Options whose labels are their values.
    static func options(_ values: [String]) -> [Option] {
        values.map { Option(value: $0, label: $0) }
    }

    /// The form input carrying `option` of a checkbox group.
    func inputName(_ option: Option) -> String { name + ":" + option.value }
}

/// A console form: titled groups of ``ConsoleField``s, the values typed in (or read from the record shown) and
/// the errors of the last submission, by field name.
struct ConsoleForm: Sendable {
    struct Group: Sendable {
        var legend: String
        var fields: [ConsoleField]
    }

    var groups: [Group]
    /// The inputs' values by input name (a checked checkbox holds `on`).
    var values: [String: String] = [:]
    /// The errors by field name.
    var errors: [String: String] = [:]
    /// A refusal that names no field of the form (a conflict, a property the form does not show).
    var problem: String?

    init(_ groups: [Group]) {
        self.groups = groups
    }

    var fields: [ConsoleField] { groups.flatMap(\.fields) }

    /// The form with `values` typed in (a password is never shown again).
    func filled(_ values: [String: String]) -> ConsoleForm {
        var form = self
        form.values = values
        for field in fields {
            if case .password = field.kind { form.values[field.name] = nil }
        }
        return form
    }

    /// The form showing `record`, a Management API representation: each field's property read from it.
    func showing(_ record: JSONValue) -> ConsoleForm {
        var values: [String: String] = [:]
        for field in fields {
            let value = Self.member(field.name, of: record)
            switch field.kind {
            case .checkbox:
                if value == .bool(true) { values[field.name] = "on" }
            case .checkboxes(let options):
                let chosen = Set((value?.arrayValue ?? []).compactMap(\.stringValue))
                for option in options where chosen.contains(option.value) { values[field.inputName(option)] = "on" }
            case .lines(let keys):
                values[field.name] = (value?.arrayValue ?? []).map { Self.line($0, keys: keys) }.joined(separator: "\n")
            case .commaSeparated:
                values[field.name] = (value?.arrayValue ?? []).map(Self.text).joined(separator: ", ")
            case .password:
                break
            case .text, .number, .textarea, .select:
                values[field.name] = value.map(Self.text) ?? ""
            }
        }
        return filled(values)
    }

    /// The JSON object the Management API would receive for the form `input` (SPEC §14: the same validation).
    /// A nested object whose members are all empty (`null`, `false`, `[]`) is sent as `null`.
    func body(from input: (String) -> String?) -> [String: JSONValue] {
        var body: [String: JSONValue] = [:]
        var nested: [String: [String: JSONValue]] = [:]
        for field in fields {
            guard let value = Self.json(field, input) else { continue }
            let path = field.name.split(separator: ".", maxSplits: 1).map(String.init)
            if path.count == 2 {
                nested[path[0], default: [:]][path[1]] = value
            } else {
                body[field.name] = value
            }
        }
        for (key, members) in nested {
            body[key] = members.values.allSatisfy(Self.isEmpty) ? .null : .object(members)
        }
        return body
    }

    /// The values typed in, by input name, to show again after a refusal.
    func typed(_ input: (String) -> String?) -> [String: String] {
        var values: [String: String] = [:]
        for field in fields {
            if case .checkboxes(let options) = field.kind {
                for option in options { values[field.inputName(option)] = input(field.inputName(option)) }
            } else {
                values[field.name] = input(field.name)
            }
        }
        return values
    }

    /// The form shown again after a submission of `input` was refused with `error`: what was typed, the error
    /// next to its field.
    func again(_ input: (String) -> String?, refused error: ManagementError) -> ConsoleForm {
        filled(typed(input)).refused(error)
    }

    /// The form after the Management API's validation refused `error`: its message next to the field whose
    /// property it names (`callbacks[1]` → `callbacks`), or as the form's problem.
    func refused(_ error: ManagementError) -> ConsoleForm {
        var form = self
        let (property, problem) = Self.property(of: error.message)
        if let property, let field = fields.first(where: { Self.property(property, isIn: $0.name) }) {
            form.errors[field.name] = problem
        } else {
            form.problem = error.message
        }
        return form
    }

    /// The property path and the problem of a ``ManagementBody/invalid(_:_:)`` message
    /// (`Payload validation error: '…' on property a.b[0].`), or no property and the whole message.
    static func property(of message: String) -> (property: String?, problem: String) {
        // A refused password (SPEC §15.1, "PasswordStrengthError: …") names no property: it is the password's.
        if PasswordPolicy.Violation.Name.allNames.contains(where: { message.hasPrefix($0.rawValue + ": ") }) {
            return ("password", message)
        }
        let prefix = "Payload validation error: '"
        let marker = "' on property "
        guard message.hasPrefix(prefix), let range = message.range(of: marker, options: .backwards) else {
            return (nil, message)
        }
        let problem = String(message[message.index(message.startIndex, offsetBy: prefix.count)..<range.lowerBound])
        var property = String(message[range.upperBound...])
        if property.hasSuffix(".") { property.removeLast() }
        return (property, problem)
    }

    /// Whether `property` (`scopes[1].value`) is the field `name` (`scopes`) or lies inside it.
    static func property(_ property: String, isIn name: String) -> Bool {
        guard property.hasPrefix(name) else { return false }
        let rest = property.dropFirst(name.count)
        return rest.isEmpty || rest.hasPrefix(".") || rest.hasPrefix("[")
    }

    // MARK: Values

    private static func json(_ field: ConsoleField, _ input: (String) -> String?) -> JSONValue? {
        let text = input(field.name) ?? ""
        switch field.kind {
        case .text(let empty):
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            return trimmed.isEmpty ? empty.json : .string(trimmed)
        case .password:
            return text.isEmpty ? nil : .string(text)
        case .number(let empty):
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            guard !trimmed.isEmpty else { return empty.json }
            return Double(trimmed).map(JSONValue.number) ?? .string(trimmed)
        case .textarea:
            return .string(text.replacingOccurrences(of: "\r\n", with: "\n"))
        case .lines(let keys) where keys.isEmpty:
            return .array(text.split(whereSeparator: \.isWhitespace).map { .string(String($0)) })
        case .lines(let keys):
            return .array(lines(text).map { object($0, keys: keys) })
        case .commaSeparated:
            let items = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            return .array(items.filter { !$0.isEmpty }.map(JSONValue.string))
        case .select:
            return text.isEmpty ? .null : .string(text)
        case .checkbox:
            return .bool(text == "on")
        case .checkboxes(let options):
            return .array(options.filter { input(field.inputName($0)) == "on" }.map { .string($0.value) })
        }
    }

    private static func lines(_ text: String) -> [String] {
        text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// A line as an object of `keys` (the first word, then the rest).
    private static func object(_ line: String, keys: [String]) -> JSONValue {
        let first = keys[0]
        let parts = line.split(maxSplits: 1, whereSeparator: \.isWhitespace).map(String.init)
        var members: [String: JSONValue] = [first: .string(parts[0])]
        if keys.count > 1, parts.count > 1 { members[keys[1]] = .string(parts[1]) }
        return .object(members)
    }

    /// An entry of an array property as its line.
    private static func line(_ value: JSONValue, keys: [String]) -> String {
        guard !keys.isEmpty, case .object(let members) = value else { return text(value) }
        return keys.compactMap { members[$0]?.stringValue }.joined(separator: " ")
    }

    private static func text(_ value: JSONValue) -> String {
        switch value {
        case .string(let text): text
        case .number(let number) where number.rounded() == number: String(Int(number))
        case .number(let number): String(number)
        case .bool(let flag): flag ? "on" : ""
        default: ""
        }
    }

    private static func member(_ path: String, of record: JSONValue) -> JSONValue? {
        path.split(separator: ".").reduce(Optional(record)) { value, key in value?.objectValue?[String(key)] }
    }

    private static func isEmpty(_ value: JSONValue) -> Bool {
        value == .null || value == .bool(false) || value == .array([])
    }
}

/// What the `form_fields` template shows of a ``ConsoleForm``: each field's input, label, hint and error, the
/// inputs tied to their hint and error by `aria-describedby`.
struct ConsoleFormView: Sendable {
    var problem: String?
    var groups: [Group]

    struct Group: Sendable {
        var legend: String
        var fields: [Field]
    }

    struct Field: Sendable {
        var id: String
        var name: String
        var label: String
        var hint: String?
        var error: String?
        var value: String
        /// `text`, `password` or `number` for an `<input>`; `nil` for the other controls.
        var inputType: String?
        var isTextarea = false
        var isSelect = false
        var isCheckbox = false
        var isCheckboxes = false
        var checked = false
        var options: [Option] = []
        /// The ids of the hint and the error, for `aria-describedby`.
        var describedBy: String?
    }

    struct Option: Sendable {
        var id: String
        var name: String
        var value: String
        var label: String
        var selected: Bool
    }

    init(_ form: ConsoleForm) {
        problem = form.problem
        groups = form.groups.map { group in
            Group(legend: group.legend, fields: group.fields.map { Self.field($0, form) })
        }
    }

    private static func field(_ field: ConsoleField, _ form: ConsoleForm) -> Field {
        let id = "f-" + field.name.map { $0.isLetter || $0.isNumber || $0 == "_" ? String($0) : "-" }.joined()
        let error = form.errors[field.name]
        let described = [field.hint.map { _ in id + "-hint" }, error.map { _ in id + "-error" }].compactMap { $0 }
        var view = Field(
            id: id, name: field.name, label: field.label, hint: field.hint, error: error,
            value: form.values[field.name] ?? "",
            describedBy: described.isEmpty ? nil : described.joined(separator: " "))
        switch field.kind {
        case .text, .commaSeparated: view.inputType = "text"
        case .password: view.inputType = "password"
        case .number: view.inputType = "number"
        case .textarea, .lines: view.isTextarea = true
        case .checkbox:
            view.isCheckbox = true
            view.checked = view.value == "on"
        case .select(let options):
            view.isSelect = true
            view.options = options.enumerated().map { index, option in
                Option(
                    id: "\(id)-\(index)", name: field.name, value: option.value, label: option.label,
                    selected: option.value == view.value)
            }
        case .checkboxes(let options):
            view.isCheckboxes = true
            view.options = options.enumerated().map { index, option in
                Option(
                    id: "\(id)-\(index)", name: field.inputName(option), value: option.value, label: option.label,
                    selected: form.values[field.inputName(option)] == "on")
            }
        }
        return view
    }
}

/// The "Previous"/"Next" links of a console table (SPEC §14), in `page` (from 0) and `per_page`.
struct ConsolePager: Sendable {
    static let defaultPerPage = 50

    var previous: String?
    var next: String?
    /// The page shown, from 1.
    var number: Int

    /// The page and page size a table's query asks for: `page` from 0 (at most 1,000), `per_page` 1 to 100.
    static func request(_ query: [String: String]) -> PageRequest {
        let page = min(max(Int(query["page"] ?? "") ?? 0, 0), 1000)
        let perPage = min(max(Int(query["per_page"] ?? "") ?? defaultPerPage, 1), 100)
        return PageRequest(page: page, perPage: perPage)
    }

    /// The links around `page` of the table at `address` with `query`; "Next" when `hasMore`.
    init(_ address: String, _ query: [(String, String)], page: PageRequest, hasMore: Bool) {
        func link(_ number: Int) -> String {
            ConsoleController.url(
                address,
                query.filter { !$0.1.isEmpty } + [("page", String(number)), ("per_page", String(page.perPage))])
        }
        previous = page.page > 0 ? link(page.page - 1) : nil
        next = hasMore ? link(page.page + 1) : nil
        number = page.page + 1
    }
}
