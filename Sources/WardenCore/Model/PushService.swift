public import WardenWire

/// The push service an authenticator device enrolled with (SPEC §7.1 `push_credentials.service`, §6.3): an open
/// set of `RawRepresentable` values, encoded as the plain (upper-case) string; the Device API's validation
/// decides which are accepted.
public struct PushService: OpenStringValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Apple Push Notification service.
    public static let apns: PushService = "APNS"
    /// Google Cloud Messaging: its tokens are Firebase Cloud Messaging tokens since 2019.
    public static let gcm: PushService = "GCM"
    /// Firebase Cloud Messaging.
    public static let fcm: PushService = "FCM"
    /// Warden's own device WebSocket (SPEC §7.5).
    public static let stream: PushService = "STREAM"
    /// An HTTPS webhook of the operator (`--push-webhook-url`).
    public static let webhook: PushService = "WEBHOOK"
}
