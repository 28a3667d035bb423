import Foundation
import WardenCore
import WardenWire

/// Device transactions (SPEC §7.2): one per (CIBA request, push-enrolled device), named by the `txtkn` a
/// device presents to fetch the consent and to answer; re-issued with a fresh token when a device lists
/// what is pending (SPEC §7.5).
struct DeviceTransactions: Sendable {
    let store: any WardenStore
    let cache: TenantCache
    let tokens: TransactionToken
    let issuer: URL
    let clock: any WardenClock

    /// A transaction named by a verified token, with its pending request and its device.
    struct Resolved: Sendable {
        var transaction: DeviceTransaction
        var request: BackchannelRequest
        var enrollment: DeviceEnrollment
    }

    /// Stores one transaction of `request` per push-enrolled device of its user, all or none, and returns
    /// them with their devices.
    func create(for request: BackchannelRequest) async throws -> [(DeviceTransaction, DeviceEnrollment)] {
        let devices = try await store.deviceEnrollments(userID: request.userID).filter(\.isPushEnrolled)
        let created = devices.map { device in
            (
                DeviceTransaction(
                    id: RandomToken.identifier(prefix: "dtx_"), requestID: request.id, enrollmentID: device.id,
                    challenge: RandomToken.make(bytes: 16), createdAt: request.createdAt,
                    expiresAt: request.expiresAt),
                device
            )
        }
        try await store.insertDeviceTransactions(created.map(\.0))
        return created
    }

    /// The transaction `token` names, while its request waits for an answer.
    ///
    /// - Throws: 401 `invalid_token` (missing, never issued, or signed by a key no longer published),
    ///   404 `device_account_not_found` (the device was unenrolled), 404 `login_transaction_not_found` (the
    ///   request was answered, through any device or the e-mail page), 410 `transaction_expired`.
    func resolve(token: String?) async throws -> Resolved {
        guard let token, let claims = tokens.verify(token) else {
            throw ManagementError.invalidToken("The transaction token is not valid")
        }
        let now = clock.now()
        guard let transaction = try await store.deviceTransaction(id: claims.transactionID),
            transaction.enrollmentID == claims.enrollmentID
        else {
            // Transactions are purged after their request expires; a valid token for one that never existed
            // cannot be made without the key.
            if claims.expiresAt <= now { throw ManagementError.transactionExpired }
            throw ManagementError.invalidToken("The transaction token is not valid")
        }
        guard let enrollment = try await store.deviceEnrollment(id: transaction.enrollmentID) else {
            throw ManagementError.deviceAccountNotFound
        }
        guard let request = try await store.backchannelRequest(id: transaction.requestID) else {
            throw ManagementError.transactionExpired
        }
        guard request.status == .pending else { throw ManagementError.loginTransactionNotFound }
        guard !request.isExpired(at: now) else { throw ManagementError.transactionExpired }
        return Resolved(transaction: transaction, request: request, enrollment: enrollment)
    }

    /// The notification of `transaction` (SPEC §7.2).
    func push(_ transaction: DeviceTransaction, of request: BackchannelRequest, to enrollment: DeviceEnrollment)
        async throws -> DevicePush
    {
        let clientName = try await cache.client(id: request.clientID)?.client.name ?? request.clientID
        return DevicePush(
            transaction: transaction, request: request, enrollment: enrollment, clientName: clientName,
            issuer: issuer)
    }

    /// The device's pending transactions, oldest first, each with a fresh token (SPEC §7.5).
    func pending(for enrollment: DeviceEnrollment) async throws -> [(push: DevicePush, token: String)] {
        var result: [(push: DevicePush, token: String)] = []
        for transaction in try await store.pendingDeviceTransactions(enrollmentID: enrollment.id, now: clock.now()) {
            guard let request = try await store.backchannelRequest(id: transaction.requestID) else { continue }
            result.append(
                (try await push(transaction, of: request, to: enrollment), try await tokens.mint(for: transaction)))
        }
        return result
    }
}
