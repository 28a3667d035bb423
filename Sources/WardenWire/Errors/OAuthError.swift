/// An OAuth 2.0 error (RFC 6749 §5.2), the one error type of the Authentication API; the resource-server SDK
/// answers with the same codes and body (RFC 6750 §3.1).
///
/// The `description` is safe to show to a client; `debugDetail` is only logged.
/// The HTTP status comes from ``OAuthError/Code/status`` unless overridden (for example
/// `access_denied` is 403 at the token endpoint for a missing client grant, SPEC §5).
public struct OAuthError: Error, Sendable, Equatable {
    /// An error code: an open set of `RawRepresentable` values (RFC 6749 §5.2, CIBA Core §13, RFC 6750 §3.1).
    public struct Code: OpenStringValue {
        /// The wire value, e.g. `invalid_request`.
        public let rawValue: String
        /// A code from its wire value.
        public init(rawValue: String) { self.rawValue = rawValue }

        public static let invalidRequest: Code = "invalid_request"
        public static let invalidClient: Code = "invalid_client"
        public static let invalidGrant: Code = "invalid_grant"
        public static let unauthorizedClient: Code = "unauthorized_client"
        public static let unsupportedGrantType: Code = "unsupported_grant_type"
        public static let invalidScope: Code = "invalid_scope"
        public static let accessDenied: Code = "access_denied"
        public static let invalidToken: Code = "invalid_token"
        public static let insufficientScope: Code = "insufficient_scope"
        public static let tooManyRequests: Code = "too_many_requests"
        public static let serverError: Code = "server_error"
        public static let unsupportedResponseType: Code = "unsupported_response_type"
        public static let loginRequired: Code = "login_required"
        public static let authorizationPending: Code = "authorization_pending"
        public static let slowDown: Code = "slow_down"
        public static let expiredToken: Code = "expired_token"
        public static let unknownUserID: Code = "unknown_user_id"
        public static let invalidBindingMessage: Code = "invalid_binding_message"
        public static let invalidAuthorizationDetails: Code = "invalid_authorization_details"
        public static let unsupportedTokenType: Code = "unsupported_token_type"

        /// The HTTP status for this code at the token, revocation and userinfo endpoints (SPEC conventions).
        public var status: Int {
            switch self {
            case .invalidClient, .invalidToken: 401
            case .insufficientScope: 403
            case .tooManyRequests: 429
            case .serverError: 500
            default: 400
            }
        }
    }

    /// The `error` member.
    public var code: Code
    /// Text that may be shown to the client.
    public var description: String
    /// The HTTP status of the response.
    public var statusCode: Int
    /// Detail for the log only; never sent to the client.
    public var debugDetail: String?
    /// Extra response headers (`WWW-Authenticate`, `Retry-After`).
    public var headers: [(name: String, value: String)]
    /// Extra top-level fields of the error body (for example `interval` on `slow_down`).
    public var extraFields: [String: JSONValue]

    public init(
        _ code: Code,
        _ description: String,
        status: Int? = nil,
        debugDetail: String? = nil,
        headers: [(name: String, value: String)] = [],
        extraFields: [String: JSONValue] = [:]
    ) {
        self.code = code
        self.description = description
        self.statusCode = status ?? code.status
        self.debugDetail = debugDetail
        self.headers = headers
        self.extraFields = extraFields
    }

    public static func == (lhs: OAuthError, rhs: OAuthError) -> Bool {
        lhs.code == rhs.code && lhs.statusCode == rhs.statusCode && lhs.description == rhs.description
    }

    public static func invalidRequest(_ description: String, debug: String? = nil) -> OAuthError {
        OAuthError(.invalidRequest, description, debugDetail: debug)
    }

    public static func serverError(debug: String) -> OAuthError {
        OAuthError(.serverError, "The server could not complete the request", debugDetail: debug)
    }

    /// The JSON body `{"error", "error_description", ...extraFields}`.
    public var body: JSONValue {
        var object = extraFields
        object["error"] = .string(code.rawValue)
        object["error_description"] = .string(description)
        return .object(object)
    }
}
