/// A fast, allocation-light JSON writer for ``JSONValue``: responses and JWT payloads on the hot path.
///
/// Object members keep the order given by ``JSONValue/serializedObject(_:)``; `.object` dictionaries are
/// written with sorted keys so the output is deterministic.
extension JSONValue {
    /// The compact JSON text of this value.
    public var serialized: String {
        var out = ""
        out.reserveCapacity(256)
        write(to: &out)
        return out
    }

    /// Serializes ordered members, as JWT claims and token responses are written.
    public static func serializedObject(_ members: [(String, JSONValue)]) -> String {
        var out = "{"
        out.reserveCapacity(512)
        var first = true
        for (key, value) in members {
            if !first { out.append(",") }
            first = false
            writeString(key, to: &out)
            out.append(":")
            value.write(to: &out)
        }
        out.append("}")
        return out
    }

    func write(to out: inout String) {
        switch self {
        case .null: out.append("null")
        case .bool(let value): out.append(value ? "true" : "false")
        case .number(let value):
            if value.rounded() == value, abs(value) < 9.0e15 {
                out.append(String(Int64(value)))
            } else if value.isFinite {
                out.append("\(value)")
            } else {
                out.append("null")
            }
        case .string(let value): Self.writeString(value, to: &out)
        case .array(let values):
            out.append("[")
            for (index, value) in values.enumerated() {
                if index > 0 { out.append(",") }
                value.write(to: &out)
            }
            out.append("]")
        case .object(let members):
            out.append("{")
            for (index, key) in members.keys.sorted().enumerated() {
                if index > 0 { out.append(",") }
                Self.writeString(key, to: &out)
                out.append(":")
                members[key]!.write(to: &out)
            }
            out.append("}")
        }
    }

    static func writeString(_ value: String, to out: inout String) {
        out.append("\"")
        // A native string's bytes are contiguous: a plain loop over them is several times faster than the
        // UTF8View iterator (this check runs for every claim of every token).
        let clean =
            value.utf8.withContiguousStorageIfAvailable { !$0.contains(where: needsEscape) }
            ?? !value.utf8.contains(where: needsEscape)
        if clean {
            out.append(value)
            out.append("\"")
            return
        }
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out.append("\\\"")
            case "\\": out.append("\\\\")
            case "\n": out.append("\\n")
            case "\r": out.append("\\r")
            case "\t": out.append("\\t")
            case "<": out.append("\\u003c")
            case ">": out.append("\\u003e")
            case "&": out.append("\\u0026")
            default:
                if scalar.value < 0x20 || scalar.value == 0x2028 || scalar.value == 0x2029 {
                    let hex = String(scalar.value, radix: 16)
                    out.append("\\u" + String(repeating: "0", count: 4 - hex.count) + hex)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out.append("\"")
    }
}

/// Whether a UTF-8 byte may start something JSON text must escape (control characters, `"`, `\\`, the
/// HTML-sensitive `<>&`, and the lead byte of U+2028/U+2029, checked precisely by the slow path).
@inline(__always)
private func needsEscape(_ byte: UInt8) -> Bool {
    byte < 0x20 || byte == 0x22 || byte == 0x5C || byte == 0x3C || byte == 0x3E || byte == 0x26 || byte == 0xE2
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
    public init(nilLiteral: ()) { self = .null }
}
