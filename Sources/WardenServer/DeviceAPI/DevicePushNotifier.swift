import WardenCore

/// The ``PushNotifier`` of SPEC §6.1/§6.3: a request's transactions are stored for every push-enrolled device
/// of the user (so each device can list them, SPEC §7.5), and a push job is queued for each device whose
/// push credentials were not disabled by its provider.
struct DevicePushNotifier: PushNotifier {
    let transactions: DeviceTransactions
    let deliveries: DeliveryService

    func hasPushEnrolledDevice(userID: String) async throws -> Bool {
        try await transactions.store.hasPushEnrolledDevice(userID: userID)
    }

    func notify(_ request: BackchannelRequest) async throws {
        var payloads: [String] = []
        for (transaction, device) in try await transactions.create(for: request) where !device.pushDisabled {
            payloads.append(try await transactions.push(transaction, of: .consent(request), to: device).json)
        }
        try await deliveries.submit(kind: .push, payloads: payloads, expiresAt: request.expiresAt)
    }
}
