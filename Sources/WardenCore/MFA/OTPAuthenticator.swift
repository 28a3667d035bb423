public import struct Foundation.Date
public import struct Foundation.TimeInterval

/// An authenticator app holding only a TOTP secret (SPEC §12 "OTP-only authenticators"): enrolled during login by
/// typing a current code, listed by `GET /api/v2/users/{id}/enrollments` with `"type": "totp"`. A push device
/// (``DeviceEnrollment``) has a TOTP secret of its own too.
public struct OTPAuthenticator: Sendable, Equatable {
    /// The prefix of OTP-only authenticator ids: `totp_…`.
    public static let idPrefix = "totp_"

    public var id: String
    public var userID: String
    public var name: String
    /// The TOTP secret (Base32), as the `otpauth://` URI carried it (SPEC §7.1).
    public var secret: String
    public var createdAt: Date
    /// When a code of this authenticator was last accepted.
    public var lastAuthAt: Date?

    public init(id: String, userID: String, name: String, secret: String, createdAt: Date, lastAuthAt: Date? = nil) {
        self.id = id
        self.userID = userID
        self.name = name
        self.secret = secret
        self.createdAt = createdAt
        self.lastAuthAt = lastAuthAt
    }
}

/// A code that matched one of the user's secrets: which authenticator, at which time step.
public struct OTPMatch: Sendable, Equatable {
    /// A ``DeviceEnrollment`` id (`dev_…`) or an ``OTPAuthenticator`` id (`totp_…`).
    public var authenticatorID: String
    /// The RFC 6238 time step whose code it was.
    public var step: Int64

    public init(authenticatorID: String, step: Int64) {
        self.authenticatorID = authenticatorID
        self.step = step
    }
}

/// The OTP lockout of SPEC §12: `limit` wrong codes within `window` lock OTP for `lockDuration`.
public struct OTPThrottle: Sendable, Equatable {
    /// SPEC §12: 10 wrong codes in 15 minutes lock OTP for 15 minutes.
    public static let standard = OTPThrottle(limit: 10, window: 15 * 60, lockDuration: 15 * 60)

    public var limit: Int
    public var window: TimeInterval
    public var lockDuration: TimeInterval

    public init(limit: Int, window: TimeInterval, lockDuration: TimeInterval) {
        self.limit = limit
        self.window = window
        self.lockDuration = lockDuration
    }
}

/// What ``AuthenticatorStore/recordOTPAttempt(userID:match:at:throttle:)`` did with one code.
public enum OTPAttemptResult: Sendable, Equatable {
    /// The code is accepted; its step is now the user's last used one.
    case accepted
    /// The code matched a step the user already used (RFC 6238 §5.2: never accepted twice); not counted as wrong.
    case replayed
    /// A wrong code, the `ordinal`-th in the window; at the throttle's limit it started a lock.
    case wrong(ordinal: Int)
    /// Refused without a check: OTP is locked for the user until `until`.
    case locked(until: Date)
}
