/// Why an ``Authenticator`` call failed.
///
/// ``kind`` says what went wrong on the device's side; for ``Kind/server`` the server's Management-shaped body
/// (SPEC §7: `{"statusCode","error","message","errorCode"}`) is in ``serverError``, e.g. `errorCode`
/// `login_transaction_not_found` when another device answered first (SPEC §7.4) or `transaction_expired`.
/// Equality compares the kind, the HTTP status and the server's `errorCode`.
public struct AuthenticatorError: Error, Sendable, Hashable, CustomStringConvertible {
    /// An open set of failure kinds.
    public struct Kind: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// A stable name, e.g. `"server"`.
        public var rawValue: String
        /// Creates a kind from its name.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The server answered with an error status; see ``AuthenticatorError/serverError``.
        public static let server = Kind(rawValue: "server")
        /// The server's answer was not the SPEC shape (unexpected status, or a body that does not decode).
        public static let invalidResponse = Kind(rawValue: "invalid_response")
        /// The request did not reach the server, or no response came back.
        public static let transport = Kind(rawValue: "transport")
        /// The enrollment URI is not a SPEC §7.1 `otpauth://` enrollment URI.
        public static let invalidEnrollmentURI = Kind(rawValue: "invalid_enrollment_uri")
        /// The key store has no key for the enrollment.
        public static let keyNotFound = Kind(rawValue: "key_not_found")
        /// The notification was sent to another enrollment than the one given.
        public static let enrollmentMismatch = Kind(rawValue: "enrollment_mismatch")
        /// The notification has no consent id (`txlnkid`) to fetch: a sign-in request (SPEC §12), which is
        /// answered without a consent.
        public static let noConsent = Kind(rawValue: "no_consent")
        /// The TOTP parameters cannot compute codes (not Base32, an unknown algorithm, digits or period).
        public static let invalidTOTP = Kind(rawValue: "invalid_totp")
        /// Signing a JWT failed.
        public static let signing = Kind(rawValue: "signing")
        /// The key store could not read or write.
        public static let storage = Kind(rawValue: "storage")
        public var description: String { rawValue }
    }

    /// The Management-API-shaped error body of SPEC §7 (`statusCode`, `error`, `message`, `errorCode`).
    public struct ServerError: Sendable, Hashable, Codable {
        /// The HTTP status the body names.
        public var statusCode: Int?
        /// The HTTP reason phrase, e.g. `"Not Found"`.
        public var error: String?
        /// A human-readable message.
        public var message: String?
        /// The machine-readable code, e.g. `"login_transaction_not_found"`.
        public var errorCode: String?

        /// Creates a server error body.
        public init(statusCode: Int? = nil, error: String? = nil, message: String? = nil, errorCode: String? = nil) {
            self.statusCode = statusCode
            self.error = error
            self.message = message
            self.errorCode = errorCode
        }
    }

    /// What went wrong.
    public var kind: Kind
    /// The HTTP status of the response, when there was one.
    public var status: Int?
    /// The server's error body, when it sent the SPEC §7 shape.
    public var serverError: ServerError?
    /// A detail for logs; not localized.
    public var detail: String

    /// Creates an error.
    public init(kind: Kind, status: Int? = nil, serverError: ServerError? = nil, detail: String = "") {
        self.kind = kind
        self.status = status
        self.serverError = serverError
        self.detail = detail
    }

    /// The server's `errorCode`, when it sent one.
    public var errorCode: String? { serverError?.errorCode }

    public var description: String {
        var parts = ["AuthenticatorError(\(kind)"]
        if let status { parts.append("status \(status)") }
        if let errorCode { parts.append(errorCode) }
        if let message = serverError?.message { parts.append(message) }
        if !detail.isEmpty { parts.append(detail) }
        return parts.joined(separator: ", ") + ")"
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.kind == rhs.kind && lhs.status == rhs.status && lhs.errorCode == rhs.errorCode
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(kind)
        hasher.combine(status)
        hasher.combine(errorCode)
    }

    static func keyNotFound(_ enrollmentID: String) -> Self {
        Self(kind: .keyNotFound, detail: "no key stored for enrollment \(enrollmentID)")
    }

    static func storage(_ detail: String) -> Self {
        Self(kind: .storage, detail: detail)
    }
}
