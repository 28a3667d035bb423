public import struct Foundation.Date

/// One successful login as the `confidence-score` policy remembers it (SPEC §12: "the user's last 10
/// successful logins"): where it came from and in which browser.
public struct RecentLogin: Sendable, Equatable {
    /// How many of a user's successful logins are kept (SPEC §12).
    public static let kept = 10

    public var userID: String
    public var network: LoginNetwork?
    /// SHA-256 (hex) of the browser's `warden_device` cookie, when it sent one.
    public var deviceHash: String?
    /// Whether a second factor was done in this login (the browser is then one the user completed MFA in).
    public var didMFA: Bool
    public var at: Date

    public init(userID: String, network: LoginNetwork?, deviceHash: String?, didMFA: Bool, at: Date) {
        self.userID = userID
        self.network = network
        self.deviceHash = deviceHash
        self.didMFA = didMFA
        self.at = at
    }
}
