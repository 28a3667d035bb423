public import WardenWire

/// A Management API error, rendered as `{"statusCode", "error", "message", "errorCode"}` (SPEC §9).
///
/// The device API (SPEC §7) uses the same shape.
public struct ManagementError: Error, Sendable, Equatable {
    public var statusCode: Int
    public var errorCode: String
    public var message: String
    /// Detail for the log only.
    public var debugDetail: String?

    public init(statusCode: Int, errorCode: String, message: String, debugDetail: String? = nil) {
        self.statusCode = statusCode
        self.errorCode = errorCode
        self.message = message
        self.debugDetail = debugDetail
    }

    /// The HTTP reason phrase for the status, the `error` member of the body.
    public var reasonPhrase: String {
        switch statusCode {
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 409: "Conflict"
        case 410: "Gone"
        case 413: "Payload Too Large"
        case 415: "Unsupported Media Type"
        case 429: "Too Many Requests"
        case 503: "Service Unavailable"
        default: "Internal Server Error"
        }
    }

    public var body: JSONValue {
        .object([
            "statusCode": .number(Double(statusCode)),
            "error": .string(reasonPhrase),
            "message": .string(message),
            "errorCode": .string(errorCode),
        ])
    }

    public static func invalidBody(_ message: String) -> ManagementError {
        ManagementError(statusCode: 400, errorCode: "invalid_body", message: message)
    }

    public static func invalidQuery(_ message: String) -> ManagementError {
        ManagementError(statusCode: 400, errorCode: "invalid_query_string", message: message)
    }

    public static func invalidToken(_ message: String = "Invalid token") -> ManagementError {
        ManagementError(statusCode: 401, errorCode: "invalid_token", message: message)
    }

    public static func insufficientScope(_ needed: String) -> ManagementError {
        ManagementError(
            statusCode: 403, errorCode: "insufficient_scope",
            message: "Insufficient scope, expected any of: \(needed)")
    }

    public static func operationNotAllowed(_ message: String) -> ManagementError {
        ManagementError(statusCode: 403, errorCode: "operation_not_allowed", message: message)
    }

    /// 404 `inexistent_{resource}` (`inexistent_user`, `inexistent_client`, …).
    public static func notFound(_ resource: String, _ message: String) -> ManagementError {
        ManagementError(statusCode: 404, errorCode: "inexistent_\(resource)", message: message)
    }

    public static func conflict(_ message: String) -> ManagementError {
        ManagementError(statusCode: 409, errorCode: "conflict", message: message)
    }

    public static let payloadTooLarge = ManagementError(
        statusCode: 413, errorCode: "payload_too_large", message: "Request body is larger than 64 KiB")

    public static func serverError(debug: String) -> ManagementError {
        ManagementError(
            statusCode: 500, errorCode: "server_error", message: "The server could not complete the request",
            debugDetail: debug)
    }
}
