import struct Foundation.Data

/// The `authorization_details` request parameter (RFC 9396 §2, SPEC §6.1): a JSON array, sent as a string,
/// of objects each with a string `type` that the API of the request registers.
public enum AuthorizationDetails {
    /// The largest accepted parameter, in bytes of UTF-8.
    public static let maximumSize = 16 * 1024

    /// The parsed array, unchanged, or `invalid_authorization_details` (RFC 9396 §5) saying what is wrong.
    /// - Parameters:
    ///   - value: the parameter as sent.
    ///   - registeredTypes: the `type`s of the request's API; `nil` when the request names no API.
    public static func parse(_ value: String, registeredTypes: Set<String>?) throws(OAuthError) -> JSONValue {
        guard value.utf8.count <= maximumSize else {
            throw invalid("authorization_details must be at most \(maximumSize) bytes")
        }
        guard let registeredTypes else { throw invalid("authorization_details requires an audience") }
        guard let parsed = try? JSONValue(parsing: value),
            let entries = parsed.arrayValue
        else { throw invalid("authorization_details must be a JSON array of objects") }
        guard !entries.isEmpty else { throw invalid("authorization_details must not be empty") }
        for (index, entry) in entries.enumerated() {
            guard let object = entry.objectValue else {
                throw invalid("authorization_details[\(index)] must be an object")
            }
            guard let type = object["type"]?.stringValue, !type.isEmpty else {
                throw invalid("authorization_details[\(index)] needs a string type")
            }
            guard registeredTypes.contains(type) else {
                throw invalid("authorization_details type '\(type)' is not registered on the API")
            }
        }
        return parsed
    }

    private static func invalid(_ description: String) -> OAuthError {
        OAuthError(.invalidAuthorizationDetails, description)
    }
}
