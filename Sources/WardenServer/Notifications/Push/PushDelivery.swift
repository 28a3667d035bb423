import Foundation
import Logging
import WardenCore
import WardenWire

/// Delivers ``DeliveryJob/Kind/push`` jobs (SPEC §6.3): mints the transaction token, hands the notification
/// to the provider of the device's enrolled service and logs `gd_send_pn` or `gd_send_pn_failure`. A job whose
/// request was answered or expired meanwhile is dropped; a provider that says the device token is dead
/// disables the device's push (the device can still list its transactions).
struct PushDelivery: DeliveryHandler {
    let kind = DeliveryJob.Kind.push
    let store: any WardenStore
    let tokens: TransactionToken
    /// By enrolled service (`APNS`, `FCM`, `GCM`, `STREAM`, `WEBHOOK`).
    let providers: [PushService: any PushProvider]
    let eventLog: EventLog
    let clock: any WardenClock
    let logger: Logger

    func deliver(_ job: DeliveryJob) async throws {
        let push = try DevicePush(of: job)
        guard let request = try await DeviceRequest.find(id: push.requestID, in: store), request.isPending,
            !request.isExpired(at: clock.now()),
            let transaction = try await store.deviceTransaction(id: push.transactionID)
        else { return }
        guard let provider = providers[PushService(rawValue: push.service.rawValue.uppercased())] else {
            let reason = "no provider is configured for the push service \(push.service)"
            log(.pushFailed, push, request, reason)
            throw DeliveryFailure.permanent(reason)
        }
        let token = try await tokens.mint(for: transaction)
        do {
            try await provider.send(push, transactionToken: token)
            log(.pushSent, push, request, "Push notification sent through \(provider.name)")
        } catch PushRejection.unregistered(let reason) {
            try await disablePush(enrollmentID: push.enrollmentID)
            let description = "\(provider.name) rejected the device token (\(reason)); push disabled for the device"
            log(.pushFailed, push, request, description)
            throw DeliveryFailure.permanent(description)
        } catch {
            log(.pushFailed, push, request, "\(provider.name): \(error)")
            throw error
        }
    }

    func abandon(_ job: DeliveryJob, reason: String) async {
        logger.warning("push abandoned", metadata: ["job": "\(job.id)", "reason": "\(reason)"])
    }

    private func disablePush(enrollmentID: String) async throws {
        guard var enrollment = try await store.deviceEnrollment(id: enrollmentID) else { return }
        enrollment.pushDisabled = true
        try await store.updateDeviceEnrollment(enrollment)
    }

    private func log(_ type: LogEventType, _ push: DevicePush, _ request: DeviceRequest, _ description: String) {
        eventLog.record(
            LogEvent(
                date: clock.now(), type: type, description: description, clientID: request.clientID,
                userID: request.userID, audience: request.audience,
                details: ["enrollment_id": .string(push.enrollmentID), "service": .string(push.service.rawValue)]))
    }
}
