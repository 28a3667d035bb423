import Foundation
import WardenAuthenticator
import WardenCore

/// A consent (SPEC §6.5, §7.3) as text lines for the terminal: who asks, the binding message, the API and scopes,
/// then every authorization detail — `money_transfer` entries as aligned rows (``MoneyTransfer``), any other
/// entry as indented `key: value` lines.
///
/// Every string from the server or the requesting client passes through ``sanitized(_:)``, so control and
/// bidirectional-formatting characters cannot move the cursor, recolour or reorder what the user approves.
enum ConsentRendering {
    /// The lines for `consent`; `client` is the push's alert title (the client's name), when the payload had one.
    static func lines(consent: Consent, client: String?, account: String?) -> [String] {
        let details = consent.requestedDetails
        var header: [(label: String, value: String)] = []
        if let bindingMessage = details.bindingMessage { header.append(("Binding message", bindingMessage)) }
        if let audience = details.audience { header.append(("API", audience)) }
        if !details.scope.isEmpty { header.append(("Scopes", details.scope.joined(separator: " "))) }
        if let account { header.append(("Account", account)) }
        var lines = [client.map { "Request from \(sanitized($0))" } ?? "Authorization request"]
        lines += aligned(header, indent: "  ")
        for entry in details.authorizationDetails {
            lines += detailLines(entry, indent: "  ")
        }
        return lines
    }

    /// One authorization detail: a heading, then its members one level deeper.
    static func detailLines(_ entry: JSONValue, indent: String) -> [String] {
        let type = entry["type"]?.stringValue
        let single = ConsentRequestedDetails(authorizationDetails: [entry])
        if let transfer = single.filterAuthorizationDetailsByType(MoneyTransfer.self).first {
            let (rows, members) = transfer.rows
            return [indent + "Money transfer"] + aligned(rows, indent: indent + "  ")
                + memberLines(entry, excluding: members.union(["type"]), indent: indent + "  ")
        }
        let heading = type.map { "Details of type \(sanitized($0))" } ?? "Details"
        return [indent + heading] + memberLines(entry, excluding: ["type"], indent: indent + "  ")
    }

    /// `label: value` rows with the values starting in one column.
    static func aligned(_ rows: [(label: String, value: String)], indent: String) -> [String] {
        let width = rows.map { sanitized($0.label).count }.max() ?? 0
        return rows.map { label, value in
            let key = sanitized(label) + ":"
            return indent + key + String(repeating: " ", count: width + 3 - key.count) + sanitized(value)
        }
    }

    /// The members of an object (sorted by name) or the elements of an array as indented `key: value` lines;
    /// nested objects and arrays go one level deeper, arrays of scalars stay on one line.
    static func memberLines(_ value: JSONValue, excluding excluded: Set<String> = [], indent: String) -> [String] {
        switch value {
        case .object(let members):
            return members.keys.sorted().filter { !excluded.contains($0) }.flatMap { key in
                entryLines(sanitized(key) + ":", members[key]!, indent: indent)
            }
        case .array(let elements):
            return elements.flatMap { entryLines("-", $0, indent: indent) }
        default:
            return [indent + scalar(value)]
        }
    }

    private static func entryLines(_ label: String, _ value: JSONValue, indent: String) -> [String] {
        switch value {
        case .object(let members) where !members.isEmpty:
            return [indent + label] + memberLines(value, indent: indent + "  ")
        case .array(let elements) where elements.contains(where: \.isComposite):
            return [indent + label] + memberLines(value, indent: indent + "  ")
        default:
            return [indent + label + " " + scalar(value)]
        }
    }

    /// A scalar as text; an array of scalars as a comma-separated list, an empty object as `{}`.
    static func scalar(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool(let flag): flag ? "true" : "false"
        case .number(let amount): Self.number(amount)
        case .string(let text): sanitized(text)
        case .array(let elements): elements.isEmpty ? "[]" : elements.map(scalar).joined(separator: ", ")
        case .object: "{}"
        }
    }

    /// A JSON number without a spurious `.0`: `2500`, `42.5`.
    static func number(_ value: Double) -> String {
        if value.rounded() == value, abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }

    /// `text` with control characters (Unicode Cc, e.g. ESC, CR, newline) and format characters (Cf, e.g. the
    /// bidirectional overrides) replaced by `\u{…}` escapes.
    static func sanitized(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar.properties.generalCategory {
            case .control, .format:
                result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default:
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}

extension JSONValue {
    /// Whether this is an array or an object.
    fileprivate var isComposite: Bool { objectValue != nil || arrayValue != nil }
}
