/// How the server reaches a device with new transactions (SPEC §7.1 `push_credentials`).
public struct PushCredentials: Sendable, Hashable, Codable {
    /// A push service name. An open set over the SPEC §7.1 values.
    public struct Service: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
        /// The wire value, e.g. `"APNS"`.
        public var rawValue: String
        /// Creates a service from its wire value.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// Apple Push Notification service; the token is the device token in hex.
        public static let apns = Service(rawValue: "APNS")
        /// Firebase Cloud Messaging; the token is the registration token.
        public static let fcm = Service(rawValue: "FCM")
        /// Google Cloud Messaging (legacy name of FCM).
        public static let gcm = Service(rawValue: "GCM")
        /// Warden extension: the server POSTs the webhook body to the `token`, an `https` URL (SPEC §7.2).
        public static let webhook = Service(rawValue: "WEBHOOK")
        /// Warden extension: the device holds a WebSocket to `…/device-accounts/{id}/stream` (SPEC §7.5).
        public static let stream = Service(rawValue: "STREAM")

        public var description: String { rawValue }

        /// Decodes the wire string.
        public init(from decoder: any Decoder) throws {
            rawValue = try decoder.singleValueContainer().decode(String.self)
        }

        /// Encodes the wire string.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(rawValue)
        }
    }

    /// The push service.
    public var service: Service
    /// The push token (APNs device token, FCM registration token, webhook URL, or stream label).
    public var token: String

    /// Creates push credentials.
    public init(service: Service, token: String) {
        self.service = service
        self.token = token
    }
}
