import WardenCore

/// A push service (SPEC §6.3): APNs, FCM, the webhook or the stream. ``PushDelivery`` picks one by the
/// device's enrolled service and logs each attempt (`gd_send_pn` / `gd_send_pn_failure`).
protocol PushProvider: Sendable {
    /// A name for logs: `apns`, `fcm`, `webhook`, `stream`.
    var name: String { get }
    /// Hands one notification to the service.
    ///
    /// - Throws: ``PushRejection/unregistered`` when the service says the device token is dead (its push
    ///   credentials are then disabled); ``DeliveryFailure`` for a refusal retrying cannot fix; anything else
    ///   is retried with backoff.
    func send(_ push: DevicePush, transactionToken: String) async throws
}

/// What a provider can say about a device token.
enum PushRejection: Error, Equatable {
    /// APNs 410 `Unregistered`, FCM 404 `UNREGISTERED`: the token will never work again.
    case unregistered(reason: String)
}
