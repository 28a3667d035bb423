import Foundation
public import WardenWire

/// The value of one `attribute_map.attributes` member of an `oidc` connection (SPEC §15): a literal, or a string
/// with placeholders `${context.tokenset.CLAIM}` (a claim of the ID token) and `${context.userinfo.CLAIM}` (a
/// member of the userinfo response), where `CLAIM` may be a dotted path into nested objects.
///
/// A template that is one placeholder and nothing else keeps the claim's JSON value (an array stays an array); a
/// template mixing text and placeholders is a string, with numbers and Booleans written as JSON writes them and the
/// elements of an array joined by `,`. A placeholder naming an absent claim leaves the attribute unset.
public struct AttributeTemplate: Sendable, Hashable {
    /// Where a placeholder reads from.
    enum Source: String, Sendable {
        case tokenset
        case userinfo
    }

    enum Part: Sendable, Hashable {
        case text(String)
        case claim(Source, ClaimPath)
    }

    /// The option's value, as configured and answered back.
    public let jsonValue: JSONValue
    private let parts: [Part]

    /// Parses the option's value: a string template, or a number or Boolean literal. Throws a sentence saying what
    /// is wrong.
    init(option value: JSONValue) throws(TemplateError) {
        jsonValue = value
        switch value {
        case .bool, .number: parts = []
        case .string(let template): parts = try Self.parse(template)
        default: throw TemplateError("Expected a string, number or boolean")
        }
    }

    struct TemplateError: Error {
        let problem: String
        init(_ problem: String) { self.problem = problem }
    }

    private static func parse(_ template: String) throws(TemplateError) -> [Part] {
        var parts: [Part] = []
        var rest = template[...]
        while let open = rest.range(of: "${") {
            if open.lowerBound > rest.startIndex { parts.append(.text(String(rest[..<open.lowerBound]))) }
            guard let close = rest[open.upperBound...].firstIndex(of: "}") else {
                throw TemplateError("Unterminated placeholder")
            }
            let expression = rest[open.upperBound..<close]
            let segments = expression.split(separator: ".", maxSplits: 2, omittingEmptySubsequences: false)
            guard segments.count == 3, segments[0] == "context", let source = Source(rawValue: String(segments[1])),
                let path = ClaimPath(String(segments[2]))
            else {
                throw TemplateError(
                    "Unknown placeholder ${\(expression)}: expected ${context.tokenset.…} or ${context.userinfo.…}")
            }
            parts.append(.claim(source, path))
            rest = rest[rest.index(after: close)...]
        }
        if !rest.isEmpty || parts.isEmpty { parts.append(.text(String(rest))) }
        return parts
    }

    /// The attribute's value for the ID token's claims `tokenset` and the userinfo response `userinfo`; `nil` when a
    /// placeholder names an absent (or `null`) claim.
    func evaluate(tokenset: [String: JSONValue], userinfo: [String: JSONValue]) -> JSONValue? {
        guard !parts.isEmpty else { return jsonValue }
        var values: [JSONValue] = []
        for part in parts {
            switch part {
            case .text(let text): values.append(.string(text))
            case .claim(let source, let path):
                guard let value = path.value(in: source == .tokenset ? tokenset : userinfo), !value.isNull else {
                    return nil
                }
                values.append(value)
            }
        }
        if values.count == 1 { return values[0] }
        return .string(values.map(Self.text).joined())
    }

    private static func text(_ value: JSONValue) -> String {
        switch value {
        case .string(let text): text
        case .array(let elements): elements.map(text).joined(separator: ",")
        default: value.serialized
        }
    }
}
