/// Why a ``WardenClient`` call failed.
///
/// When the server refused a request, ``error`` and ``errorDescription`` are its OAuth error (RFC 6749 §5.2,
/// CIBA Core §11 and §13, SPEC §5–§6), e.g. `invalid_grant`, `access_denied`, `expired_token`, and ``status``
/// is the HTTP status. Failures found by the SDK itself have no status and use their own codes:
/// - `state_mismatch`: the callback's `state` is not the request's (RFC 6749 §10.12);
/// - `invalid_callback`: the callback carries neither a code nor an error;
/// - `invalid_id_token` / `invalid_access_token`: a JWT failed validation; the description says which check;
/// - `invalid_response`: the server's answer is not what the specification describes;
/// - `transport`: no answer arrived;
/// - `expired_token`: a CIBA request expired before it was approved.
///
/// Two errors are equal when their ``error`` and ``status`` are; the description is for people.
public struct WardenClientError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The OAuth `error` code, or one of the SDK's own codes.
    public let error: String
    /// The `error_description`, or the SDK's explanation.
    public let errorDescription: String?
    /// The HTTP status of the server's answer; `nil` when the SDK found the failure.
    public let status: Int?

    /// Creates an error.
    public init(error: String, errorDescription: String? = nil, status: Int? = nil) {
        self.error = error
        self.errorDescription = errorDescription
        self.status = status
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.error == rhs.error && lhs.status == rhs.status
    }

    public var description: String {
        var text = "WardenClientError(\(error)"
        if let status { text += ", status \(status)" }
        if let errorDescription { text += ": \(errorDescription)" }
        return text + ")"
    }

    static func invalidResponse(_ detail: String, status: Int? = nil) -> Self {
        Self(error: "invalid_response", errorDescription: detail, status: status)
    }

    static func invalidIDToken(_ detail: String) -> Self {
        Self(error: "invalid_id_token", errorDescription: detail)
    }
}
