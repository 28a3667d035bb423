import Foundation
import Hummingbird
import WardenCore
import WardenWire

/// A JSON object of a Management API request body, read member by member with its type checked (SPEC §9:
/// "Bodies are validated"). Every mistake is a 400 `invalid_body` naming the property by its path, e.g.
/// `session_transfer.enforce_device_binding`. A member that is absent or `null` reads as `nil`; ``has(_:)``
/// tells them apart, which is how PATCH resets a property (`{"field": null}`).
struct ManagementBody {
    let members: [String: JSONValue]
    /// Where this object sits in the request body, ending in `.` (empty at the top).
    let path: String

    init(_ members: [String: JSONValue], path: String = "") {
        self.members = members
        self.path = path
    }

    /// A request body's object, refusing properties outside `allowed`: how the Management API and the console
    /// (which builds the same object from its form, SPEC §14) hand a body to the shared validation.
    init(checking members: [String: JSONValue], allowed: Set<String>) throws {
        try ManagementRequest.rejectUnknown(members, allowed: allowed)
        self.init(members)
    }

    /// Reads the body of `request`, refusing properties outside `allowed`.
    static func read(_ request: Request, allowed: Set<String>) async throws -> ManagementBody {
        ManagementBody(try await ManagementRequest.object(request, allowed: allowed))
    }

    /// Whether the body carries `key`, `null` included.
    func has(_ key: String) -> Bool { members[key] != nil }

    /// A 400 `invalid_body` about `key`.
    func invalid(_ key: String, _ problem: String) -> ManagementError {
        .invalidBody("Payload validation error: '\(problem)' on property \(path)\(key).")
    }

    /// A string, optionally one of `allowed`.
    func string(_ key: String, oneOf allowed: [String]? = nil) throws -> String? {
        guard let value = value(key) else { return nil }
        guard case .string(let text) = value else { throw typeError(key, "string", value) }
        if let allowed, !allowed.contains(text) {
            throw invalid(key, "Value \"\(text)\" is not one of: \(allowed.joined(separator: ", "))")
        }
        return text
    }

    /// A non-empty string that must be present.
    func requiredString(_ key: String) throws -> String {
        guard let text = try string(key), !text.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw invalid(key, "Missing required property or empty string")
        }
        return text
    }

    func bool(_ key: String) throws -> Bool? {
        guard let value = value(key) else { return nil }
        guard case .bool(let flag) = value else { throw typeError(key, "boolean", value) }
        return flag
    }

    /// A whole number within `range`.
    func integer(_ key: String, in range: ClosedRange<Int>) throws -> Int? {
        guard let value = value(key) else { return nil }
        guard case .number(let number) = value else { throw typeError(key, "integer", value) }
        guard number.rounded() == number, number >= Double(range.lowerBound), number <= Double(range.upperBound)
        else { throw invalid(key, "Expected an integer between \(range.lowerBound) and \(range.upperBound)") }
        return Int(number)
    }

    /// An array of strings, each optionally one of `allowed`; duplicates are dropped, order kept.
    func strings(_ key: String, oneOf allowed: [String]? = nil) throws -> [String]? {
        guard let value = value(key) else { return nil }
        guard case .array(let items) = value else { throw typeError(key, "array", value) }
        var result: [String] = []
        for (index, item) in items.enumerated() {
            guard case .string(let text) = item else { throw typeError("\(key)[\(index)]", "string", item) }
            if let allowed, !allowed.contains(text) {
                throw invalid("\(key)[\(index)]", "Value \"\(text)\" is not one of: \(allowed.joined(separator: ", "))")
            }
            if !result.contains(text) { result.append(text) }
        }
        return result
    }

    /// A value of an open value set (``AppType``, ``TokenEndpointAuthMethod`` …) that must be one of `allowed`:
    /// the type can represent any string, this validation decides what a client may be given.
    func value<Value: RawRepresentable>(_ key: String, oneOf allowed: [Value]) throws -> Value?
    where Value.RawValue == String {
        try string(key, oneOf: allowed.map(\.rawValue)).flatMap(Value.init(rawValue:))
    }

    /// An array of values of an open value set, each one of `allowed`, duplicates dropped (see ``strings(_:oneOf:)``).
    func values<Value: RawRepresentable>(_ key: String, oneOf allowed: [Value]) throws -> [Value]?
    where Value.RawValue == String {
        try strings(key, oneOf: allowed.map(\.rawValue))?.compactMap(Value.init(rawValue:))
    }

    /// An absolute URL; with `schemes`, its scheme must be one of them (`http`/`https` URLs need a host,
    /// and no URL may carry a fragment).
    func url(_ key: String, schemes: Set<String>? = Self.webSchemes) throws -> String? {
        guard let text = try string(key) else { return nil }
        try checkURL(text, key: key, schemes: schemes)
        return text
    }

    /// An array of absolute URLs, as ``url(_:schemes:)``.
    func urls(_ key: String, schemes: Set<String>? = Self.webSchemes) throws -> [String]? {
        guard let texts = try strings(key) else { return nil }
        for (index, text) in texts.enumerated() {
            try checkURL(text, key: "\(key)[\(index)]", schemes: schemes)
        }
        return texts
    }

    static let webSchemes: Set<String> = ["http", "https"]

    /// A nested object whose properties must be among `allowed`.
    func object(_ key: String, allowed: Set<String>) throws -> ManagementBody? {
        guard let value = value(key) else { return nil }
        guard case .object(let members) = value else { throw typeError(key, "object", value) }
        let nested = ManagementBody(members, path: "\(path)\(key).")
        try ManagementRequest.rejectUnknown(members, allowed: allowed, path: nested.path)
        return nested
    }

    /// An array of objects whose properties must be among `allowed`.
    func objects(_ key: String, allowed: Set<String>) throws -> [ManagementBody]? {
        guard let value = value(key) else { return nil }
        guard case .array(let items) = value else { throw typeError(key, "array", value) }
        return try items.enumerated().map { index, item in
            guard case .object(let members) = item else { throw typeError("\(key)[\(index)]", "object", item) }
            let nested = ManagementBody(members, path: "\(path)\(key)[\(index)].")
            try ManagementRequest.rejectUnknown(members, allowed: allowed, path: nested.path)
            return nested
        }
    }

    /// A free-form JSON object (`user_metadata`, `app_metadata`).
    func jsonObject(_ key: String) throws -> [String: JSONValue]? {
        guard let value = value(key) else { return nil }
        guard case .object(let members) = value else { throw typeError(key, "object", value) }
        return members
    }

    private func value(_ key: String) -> JSONValue? {
        guard let value = members[key], value != .null else { return nil }
        return value
    }

    private func typeError(_ key: String, _ expected: String, _ found: JSONValue) -> ManagementError {
        invalid(key, "Expected type \(expected) but found \(found.typeName)")
    }

    private func checkURL(_ text: String, key: String, schemes: Set<String>?) throws {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), url.fragment == nil,
            schemes?.contains(scheme) ?? true, !Self.webSchemes.contains(scheme) || url.host?.isEmpty == false
        else {
            let expected = schemes.map { " (" + $0.sorted().joined(separator: " or ") + ")" } ?? ""
            throw invalid(key, "Expected an absolute URL\(expected) without a fragment")
        }
    }
}
