import Foundation

/// The error body of the Authentication API (RFC 6749 §5.2, SPEC conventions):
/// `{"error", "error_description"}`, plus `interval` on a CIBA `slow_down` (SPEC §6.2).
struct OAuthErrorBody: Decodable {
    var error: String
    var errorDescription: String?
    var interval: Int?

    enum CodingKeys: String, CodingKey {
        case error
        case errorDescription = "error_description"
        case interval
    }

    /// The body of `response`, when it is an OAuth error.
    static func decode(_ response: HTTPResponse) -> OAuthErrorBody? {
        try? JSONDecoder().decode(OAuthErrorBody.self, from: response.body)
    }

    /// The error `response` carries: its body's `error`, else the `error` of a `WWW-Authenticate: Bearer`
    /// challenge (RFC 6750 §3), else `invalid_response`.
    static func error(in response: HTTPResponse) -> WardenClientError {
        if let body = decode(response) {
            return WardenClientError(
                error: body.error, errorDescription: body.errorDescription, status: response.status)
        }
        if let challenge = response.header("WWW-Authenticate"), let code = parameter("error", in: challenge) {
            return WardenClientError(
                error: code, errorDescription: parameter("error_description", in: challenge), status: response.status)
        }
        return .invalidResponse("HTTP \(response.status) without an OAuth error body", status: response.status)
    }

    /// A quoted parameter of an authentication challenge, e.g. `error="invalid_token"`.
    private static func parameter(_ name: String, in challenge: String) -> String? {
        guard let start = challenge.range(of: name + "=\"") else { return nil }
        let rest = challenge[start.upperBound...]
        return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
    }
}
