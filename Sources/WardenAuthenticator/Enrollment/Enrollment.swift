public import Foundation
public import WardenWire

/// An enrolled device account: what a device keeps after `Authenticator.enroll(uri:identifier:name:pushCredentials:)`
/// (SPEC §7.1), alongside its ``DeviceKey`` in a ``KeyStore``.
///
/// `Codable` so a ``KeyStore`` can persist it. It holds the device-account token and TOTP secret: store it
/// where only the app can read it.
public struct Enrollment: Sendable, Hashable, Codable, Identifiable {
    /// The enrollment (device account) id, `dev_…`; notifications name it as `dai`.
    public var id: String
    /// The enrolled user's id (`user_id`).
    public var userID: String
    /// The issuer URL the device talks to, ending in `/` (the enrollment URI's `base_url`).
    public var baseURL: URL
    /// The issuer label (`issuer`) to show next to the account.
    public var issuerLabel: String?
    /// The account name from the enrollment URI (usually the user's e-mail), when known.
    public var accountName: String?
    /// This device's `identifier`, the `iss` of its challenge responses (SPEC §7.4).
    public var deviceIdentifier: String
    /// This device's display `name`.
    public var deviceName: String
    /// The device-account token (`token`): an alternative to the device JWT for SPEC §7.1 PATCH/DELETE.
    public var deviceAccountToken: String?
    /// The push credentials the server has for this device, when any.
    public var pushCredentials: PushCredentials?
    /// The TOTP parameters (`totp`), when the server returned them.
    public var totp: TOTPParameters?

    /// Creates an enrollment record.
    public init(
        id: String, userID: String, baseURL: URL, issuerLabel: String? = nil, accountName: String? = nil,
        deviceIdentifier: String, deviceName: String, deviceAccountToken: String? = nil,
        pushCredentials: PushCredentials? = nil, totp: TOTPParameters? = nil
    ) {
        self.id = id
        self.userID = userID
        self.baseURL = baseURL
        self.issuerLabel = issuerLabel
        self.accountName = accountName
        self.deviceIdentifier = deviceIdentifier
        self.deviceName = deviceName
        self.deviceAccountToken = deviceAccountToken
        self.pushCredentials = pushCredentials
        self.totp = totp
    }

    enum CodingKeys: String, CodingKey {
        case id
        case userID = "user_id"
        case baseURL = "base_url"
        case issuerLabel = "issuer"
        case accountName = "account_name"
        case deviceIdentifier = "identifier"
        case deviceName = "name"
        case deviceAccountToken = "token"
        case pushCredentials = "push_credentials"
        case totp
    }

    /// The issuer URL as a string ending in `/`, the `{issuer}` prefix of SPEC §7 paths and audiences.
    public var issuer: String {
        let string = baseURL.absoluteString
        return string.hasSuffix("/") ? string : string + "/"
    }
}

/// The TOTP parameters of an enrollment (SPEC §7.1 `totp`): what ``code(at:)`` computes the `otp` factor's
/// codes from (SPEC §12).
public struct TOTPParameters: Sendable, Hashable, Codable {
    /// The shared secret, Base32.
    public var secret: String
    /// The HMAC algorithm, `sha1`.
    public var algorithm: TOTPAlgorithm
    /// The number of digits, 6.
    public var digits: Int
    /// The period in seconds, 30.
    public var period: Int

    /// Creates TOTP parameters.
    public init(secret: String, algorithm: TOTPAlgorithm = .sha1, digits: Int = 6, period: Int = 30) {
        self.secret = secret
        self.algorithm = algorithm
        self.digits = digits
        self.period = period
    }

    enum CodingKeys: String, CodingKey {
        case secret, algorithm, digits, period
    }

    /// Decodes `totp`; absent `algorithm`, `digits`, `period` take the SPEC §7.1 defaults.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        secret = try container.decode(String.self, forKey: .secret)
        algorithm = try container.decodeIfPresent(TOTPAlgorithm.self, forKey: .algorithm) ?? .sha1
        digits = try container.decodeIfPresent(Int.self, forKey: .digits) ?? 6
        period = try container.decodeIfPresent(Int.self, forKey: .period) ?? 30
    }
}
