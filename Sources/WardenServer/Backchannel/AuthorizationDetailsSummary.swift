import WardenCore

/// One line per `authorization_details` entry (RFC 9396 §2) for people: the type, then its fields in key
/// order, nested objects inline — what the approval e-mail and page show (SPEC §6.4, §6.5).
enum AuthorizationDetailsSummary {
    static func lines(_ details: JSONValue?) -> [String] {
        guard let entries = details?.arrayValue else { return [] }
        return entries.compactMap { entry in
            guard let object = entry.objectValue else { return nil }
            let type = object["type"]?.stringValue ?? "details"
            let fields = object.keys.sorted().filter { $0 != "type" }.map { "\($0): \(text(object[$0]!))" }
            return fields.isEmpty ? type : "\(type) — " + fields.joined(separator: "; ")
        }
    }

    private static func text(_ value: JSONValue) -> String {
        switch value {
        case .null: "—"
        case .bool(let flag): flag ? "yes" : "no"
        case .number(let number):
            number.rounded() == number && abs(number) < 1e15 ? String(Int64(number)) : String(number)
        case .string(let string): string
        case .array(let items): "[" + items.map(text).joined(separator: ", ") + "]"
        case .object(let members):
            "{" + members.keys.sorted().map { "\($0) \(text(members[$0]!))" }.joined(separator: ", ") + "}"
        }
    }
}
