public import WardenWire

public import struct Foundation.Date

/// One event of the tenant log (SPEC §10), read through `/api/v2/logs`.
public struct LogEvent: Sendable, Equatable {
    public var logID: String
    public var date: Date
    public var type: LogEventType
    public var description: String?
    public var clientID: String?
    public var clientName: String?
    public var ip: String?
    public var userAgent: String?
    public var userID: String?
    public var userName: String?
    public var audience: String?
    public var scope: String?
    /// The organization of a login (SPEC §19: `s` records carry `organization_id` and `organization_name`).
    public var organizationID: String?
    public var organizationName: String?
    public var details: [String: JSONValue]

    public init(
        logID: String? = nil, date: Date, type: LogEventType,
        description: String? = nil, clientID: String? = nil, clientName: String? = nil, ip: String? = nil,
        userAgent: String? = nil, userID: String? = nil, userName: String? = nil, audience: String? = nil,
        scope: String? = nil, details: [String: JSONValue] = [:], organizationID: String? = nil,
        organizationName: String? = nil
    ) {
        self.logID = logID ?? Self.makeID(at: date)
        self.date = date
        self.type = type
        self.description = description
        self.clientID = clientID
        self.clientName = clientName
        self.ip = ip
        self.userAgent = userAgent
        self.userID = userID
        self.userName = userName
        self.audience = audience
        self.scope = scope
        self.details = details
        self.organizationID = organizationID
        self.organizationName = organizationName
    }
}

/// A log event type code (SPEC §10): an open set.
public struct LogEventType: OpenStringValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let loginSuccess: LogEventType = "s"
    public static let loginFailure: LogEventType = "f"
    public static let wrongPassword: LogEventType = "fp"
    public static let unknownUser: LogEventType = "fu"
    public static let accountLocked: LogEventType = "limit_wc"
    public static let codeExchangeSucceeded: LogEventType = "seacft"
    public static let codeExchangeFailed: LogEventType = "feacft"
    public static let clientCredentialsSucceeded: LogEventType = "seccft"
    public static let clientCredentialsFailed: LogEventType = "feccft"
    public static let refreshExchangeSucceeded: LogEventType = "sertft"
    public static let refreshExchangeFailed: LogEventType = "fertft"
    /// A rotated refresh token was presented again and its family revoked.
    public static let refreshTokenReused: LogEventType = "ferrt"
    /// A refresh token was revoked at `/oauth/revoke`.
    public static let refreshTokenRevoked: LogEventType = "srrt"
    /// The user logged out (`/oidc/logout`).
    public static let logout: LogEventType = "slo"
    public static let managementSucceeded: LogEventType = "sapi"
    public static let managementFailed: LogEventType = "fapi"
    /// A CIBA request was accepted at `/bc-authorize` (SPEC §6.1).
    public static let cibaStartSucceeded: LogEventType = "ciba_start_succeeded"
    public static let cibaStartFailed: LogEventType = "ciba_start_failed"
    /// A CIBA request was redeemed for tokens, or a poll ended it (SPEC §6.2).
    public static let cibaExchangeSucceeded: LogEventType = "ciba_exchange_succeeded"
    public static let cibaExchangeFailed: LogEventType = "ciba_exchange_failed"
    /// The user approved (`gd_auth_succeed`) or denied (`gd_auth_rejected`) a request (SPEC §7.4, §6.4).
    public static let deviceAccepted: LogEventType = "gd_auth_succeed"
    public static let deviceRejected: LogEventType = "gd_auth_rejected"
    /// A device answer that did not verify, or came too late (SPEC §7.4).
    public static let deviceAuthFailed: LogEventType = "gd_auth_failed"
    /// An approval e-mail was sent (SPEC §6.4).
    public static let sendEmail: LogEventType = "gd_send_email"
    /// A device enrolled (SPEC §7.1).
    public static let deviceEnrolled: LogEventType = "gd_enrollment_complete"
    /// A security key did not prove the second factor, or could not be added (SPEC §17 "Second factor").
    public static let webAuthnChallengeFailed: LogEventType = "gd_webauthn_challenge_failed"
    public static let webAuthnEnrollmentFailed: LogEventType = "gd_webauthn_enrollment_failed"
    /// A device enrolment was deleted, by the device or the Management API (SPEC §7.1, §9).
    public static let deviceUnenrolled: LogEventType = "gd_unenroll"
    /// A device changed its name, identifier or push credentials (SPEC §7.1).
    public static let deviceUpdated: LogEventType = "gd_update_device_account"
    /// A push notification was handed to its provider, or failed (SPEC §6.3).
    public static let pushSent: LogEventType = "gd_send_pn"
    public static let pushFailed: LogEventType = "gd_send_pn_failure"
    /// A consent fetch was refused (SPEC §7.3).
    public static let richConsentsAccessError: LogEventType = "rich_consents_access_error"
    /// A client registered itself (SPEC §13, RFC 7591).
    public static let registrationSucceeded: LogEventType = "sdcr"
    /// A dynamic registration was refused (SPEC §13).
    public static let registrationFailed: LogEventType = "fdcr"
    /// A login needs a second factor (SPEC §12), with the reasons in its details.
    public static let mfaRequired: LogEventType = "mfar"
    /// A second-factor step began: an enrolment during login, or a challenge (SPEC §12).
    public static let mfaEnrollmentStarted: LogEventType = "gd_start_enroll"
    public static let mfaChallengeStarted: LogEventType = "gd_start_auth"
    /// The tenth wrong one-time code in 15 minutes locked OTP for the user, or a code came during the lock (SPEC §12).
    public static let otpRateLimitExceeded: LogEventType = "gd_otp_rate_limit_exceed"
    /// A recovery code was accepted, or refused (SPEC §12).
    public static let recoverySucceeded: LogEventType = "gd_recovery_succeed"
    public static let recoveryFailed: LogEventType = "gd_recovery_failed"
    /// A bulk-users import job ended, or failed as a whole (SPEC §9 "Bulk users"; the vendor's types).
    public static let usersImportSucceeded: LogEventType = "sui"
    public static let usersImportFailed: LogEventType = "fui"
    /// A bulk-users export job ended, or failed (SPEC §9 "Bulk users"; Warden's types, the vendor has none).
    public static let usersExportSucceeded: LogEventType = "users_export_succeeded"
    public static let usersExportFailed: LogEventType = "users_export_failed"
    /// A sign-up through the hosted page or `POST /dbconnections/signup`, or a refused one (SPEC §15.1).
    public static let signupSucceeded: LogEventType = "ss"
    public static let signupFailed: LogEventType = "fs"
    /// An e-mail verification link was used, or could not be (used, expired, unknown) (SPEC §15.1).
    public static let verificationSucceeded: LogEventType = "sv"
    public static let verificationFailed: LogEventType = "fv"
    /// A password reset was asked for an address with an account, or for one without (SPEC §15.1).
    public static let passwordResetRequestSucceeded: LogEventType = "scpr"
    public static let passwordResetRequestFailed: LogEventType = "fcpr"
    /// A password was changed through a reset link, or the change was refused (SPEC §15.1).
    public static let passwordChangeSucceeded: LogEventType = "scp"
    public static let passwordChangeFailed: LogEventType = "fcp"
}

extension LogEvent {
    /// A new event id: the event's time (milliseconds since 1970, 12 hex digits) then 12 random base-62
    /// characters. Ids of later events sort later, so the stored log's unique index on the id grows at its end
    /// instead of at random places: a batch of inserts dirties a few pages, not one per event (3.8× faster
    /// inserts of 450,000 events on SQLite).
    public static func makeID(at date: Date) -> String {
        let milliseconds = max(0, min(Int64((date.timeIntervalSince1970 * 1000).rounded(.down)), 0xFFFF_FFFF_FFFF))
        let hex = String(milliseconds, radix: 16)
        return String(repeating: "0", count: 12 - hex.count) + hex + RandomToken.identifier(prefix: "", length: 12)
    }
}
