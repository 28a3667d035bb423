public import WardenCore

/// Sends CIBA requests to a user's authenticator devices (SPEC §6.1 channel, §6.3 push delivery, §7.2).
public protocol PushNotifier: Sendable {
    /// Whether the user has a device enrolled with `push_credentials` of any service (SPEC §6.1).
    func hasPushEnrolledDevice(userID: String) async throws -> Bool
    /// Creates the device transactions of `request` and queues a push to each push-enrolled device. A failed
    /// push is retried and never loses the request: the device can still list its transactions (SPEC §6.3).
    func notify(_ request: BackchannelRequest) async throws
}
