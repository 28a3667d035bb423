public import struct Foundation.Date

/// An authenticator device enrolled for a user (SPEC §7.1): a device account `dev_…` with the device's RSA
/// public key, its push credentials, and the SHA-256 of the device-account token it received at enrolment.
public struct DeviceEnrollment: Sendable, Equatable {
    /// How the device receives notifications (SPEC §7.1 `push_credentials`).
    public struct PushCredentials: Sendable, Equatable {
        /// `APNS`, `GCM`, `FCM`, `STREAM` or `WEBHOOK`, as enrolled.
        public var service: PushService
        public var token: String

        public init(service: PushService, token: String) {
            self.service = service
            self.token = token
        }
    }

    /// `dev_…`.
    public var id: String
    public var userID: String
    /// The device's own identifier, unique per user (the `iss` of its challenge responses, SPEC §7.4).
    public var identifier: String
    public var name: String
    public var pushCredentials: PushCredentials?
    /// Set when the provider said the push token is dead (APNs 410): pushes are skipped; the device can still
    /// list its transactions (SPEC §6.1).
    public var pushDisabled: Bool
    /// The RSA public key: modulus and exponent, base64url without padding and without a leading zero byte.
    public var publicKeyModulus: String
    public var publicKeyExponent: String
    /// SHA-256 (hex) of the device-account token.
    public var tokenHash: String
    /// The TOTP secret (base32) given to the device at enrolment (SPEC §7.1 `totp`).
    public var totpSecret: String
    public var createdAt: Date
    /// When the device last proved the user (a login approved or a code of its secret accepted, SPEC §12).
    public var lastAuthAt: Date?

    public init(
        id: String, userID: String, identifier: String, name: String, pushCredentials: PushCredentials?,
        pushDisabled: Bool = false, publicKeyModulus: String, publicKeyExponent: String, tokenHash: String,
        totpSecret: String, createdAt: Date, lastAuthAt: Date? = nil
    ) {
        self.id = id
        self.userID = userID
        self.identifier = identifier
        self.name = name
        self.pushCredentials = pushCredentials
        self.pushDisabled = pushDisabled
        self.publicKeyModulus = publicKeyModulus
        self.publicKeyExponent = publicKeyExponent
        self.tokenHash = tokenHash
        self.totpSecret = totpSecret
        self.createdAt = createdAt
        self.lastAuthAt = lastAuthAt
    }

    /// Whether the device counts as push-enrolled (SPEC §6.1: push credentials of any service, even one whose
    /// provider is not configured or whose token the provider rejected).
    public var isPushEnrolled: Bool { pushCredentials != nil }
}
