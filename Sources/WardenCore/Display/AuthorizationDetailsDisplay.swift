public import WardenWire

/// `authorization_details` (RFC 9396 §2) for people: one section per entry, each a heading and labelled rows
/// — what the approval page, the approval e-mail and the terminal authenticator show (SPEC §6.4, §6.5), written
/// once so the three agree.
///
/// A `money_transfer` entry (the reference documents' example) reads as a transfer: Amount "2500 USD", From,
/// To, Beneficiary, Subject, taken from the reference's members (`instructedAmount`, `sourceAccount`,
/// `destinationAccount`, `beneficiary`, `subject`) or their RFC 9396 payment-initiation counterparts
/// (`debtorAccount`, `creditorAccount`, `creditorName`, `remittanceInformationUnstructured`). Every other
/// member, and every entry of another type, is shown as labelled fields, nested members one level deeper, so
/// nothing the user grants goes unseen. Every label and value passes through ``DisplayText/clean(_:)``.
public enum AuthorizationDetailsDisplay {
    /// One entry: "Money transfer" or "Details of type X", then its rows.
    public struct Section: Sendable, Equatable {
        public var heading: String
        public var rows: [Row]
    }

    /// A labelled line; `depth` 0 is a member of the entry, 1 a member of that member, and so on. A row whose
    /// value is empty heads the deeper rows after it.
    public struct Row: Sendable, Equatable {
        public var label: String
        public var value: String
        public var depth: Int

        public init(label: String, value: String, depth: Int = 0) {
            self.label = label
            self.value = value
            self.depth = depth
        }
    }

    /// `label: value` lines with the values starting in one column and deeper rows indented, for plain text
    /// (the terminal, the e-mail's text part).
    public static func textLines(_ rows: [Row], indent: String) -> [String] {
        let width = rows.map { $0.label.count + 2 * $0.depth }.max() ?? 0
        return rows.map { row in
            let key = String(repeating: "  ", count: row.depth) + row.label + ":"
            guard !row.value.isEmpty else { return indent + key }
            return indent + key + String(repeating: " ", count: width + 3 - key.count) + row.value
        }
    }

    public static func sections(_ details: JSONValue?) -> [Section] {
        (details?.arrayValue ?? []).map(section)
    }

    /// The section of one entry (an entry that is not an object is shown as a value).
    public static func section(_ entry: JSONValue) -> Section {
        guard let members = entry.objectValue else {
            return Section(heading: "Details", rows: [Row(label: "Value", value: scalar(entry))])
        }
        let type = members["type"]?.stringValue.map(DisplayText.clean)
        if type == "money_transfer" {
            let (rows, used) = moneyTransferRows(members)
            return Section(heading: "Money transfer", rows: rows + memberRows(members, excluding: used, depth: 0))
        }
        return Section(
            heading: type.map { "Details of type \($0)" } ?? "Details",
            rows: memberRows(members, excluding: ["type"], depth: 0))
    }

    /// The transfer's labelled rows, each from the first present member of its candidates, and the members used.
    static func moneyTransferRows(_ members: [String: JSONValue]) -> ([Row], Set<String>) {
        let candidates: [(label: String, keys: [String])] = [
            ("Amount", ["instructedAmount"]),
            ("From", ["sourceAccount", "debtorAccount"]),
            ("To", ["destinationAccount", "creditorAccount"]),
            ("Beneficiary", ["beneficiary", "creditorName"]),
            ("Subject", ["subject", "remittanceInformationUnstructured"]),
        ]
        var rows: [Row] = []
        var used: Set<String> = ["type"]
        for (label, keys) in candidates {
            for key in keys {
                guard let value = members[key], let text = key == "instructedAmount" ? amount(value) : account(value)
                else { continue }
                rows.append(Row(label: label, value: text))
                used.insert(key)
                break
            }
        }
        return (rows, used)
    }

    /// `{"amount": 2500, "currency": "USD"}` → "2500 USD" (the amount may be a decimal string).
    static func amount(_ value: JSONValue) -> String? {
        guard let object = value.objectValue, let currency = object["currency"]?.stringValue,
            let amount = object["amount"], amount.objectValue == nil, amount.arrayValue == nil,
            object.keys.allSatisfy({ $0 == "amount" || $0 == "currency" })
        else { return nil }
        return scalar(amount) + " " + DisplayText.clean(currency)
    }

    /// An account or a name: a string, or an object naming it by `iban` or `number` alone.
    static func account(_ value: JSONValue) -> String? {
        if let text = value.stringValue { return DisplayText.clean(text) }
        guard let object = value.objectValue, object.count == 1,
            let identifier = object["iban"]?.stringValue ?? object["number"]?.stringValue
        else { return nil }
        return DisplayText.clean(identifier)
    }

    /// The members (sorted by name) as rows; objects and arrays of objects go one level deeper, arrays of
    /// scalars stay on one line.
    static func memberRows(_ members: [String: JSONValue], excluding excluded: Set<String>, depth: Int) -> [Row] {
        members.keys.sorted().filter { !excluded.contains($0) }.flatMap { key in
            rows(label: DisplayText.clean(key), value: members[key]!, depth: depth)
        }
    }

    private static func rows(label: String, value: JSONValue, depth: Int) -> [Row] {
        switch value {
        case .object(let members) where !members.isEmpty:
            return [Row(label: label, value: "", depth: depth)] + memberRows(members, excluding: [], depth: depth + 1)
        case .array(let elements) where elements.contains(where: { $0.objectValue != nil || $0.arrayValue != nil }):
            return [Row(label: label, value: "", depth: depth)]
                + elements.enumerated().flatMap { index, element in
                    rows(label: "\(index + 1)", value: element, depth: depth + 1)
                }
        default:
            return [Row(label: label, value: scalar(value), depth: depth)]
        }
    }

    /// A scalar as text (`2500`, not `2500.0`); an array of scalars as a comma-separated list.
    public static func scalar(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool(let flag): flag ? "true" : "false"
        case .number(let number):
            number.rounded() == number && abs(number) < 1e15 ? String(Int64(number)) : String(number)
        case .string(let text): DisplayText.clean(text)
        case .array(let elements): elements.isEmpty ? "[]" : elements.map(scalar).joined(separator: ", ")
        case .object: "{}"
        }
    }
}
