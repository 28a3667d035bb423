import Foundation
import WardenCore
import WardenWire

/// What a device transaction asks the user: a CIBA request's consent (SPEC §7), or a sign-in (SPEC §12).
enum DeviceRequest: Sendable {
    case consent(BackchannelRequest)
    case signIn(LoginChallenge)

    var userID: String {
        switch self {
        case .consent(let request): request.userID
        case .signIn(let challenge): challenge.userID
        }
    }

    var clientID: String {
        switch self {
        case .consent(let request): request.clientID
        case .signIn(let challenge): challenge.clientID
        }
    }

    /// The API a CIBA request is for; `nil` for a sign-in.
    var audience: String? {
        guard case .consent(let request) = self else { return nil }
        return request.audience
    }

    /// The scope a CIBA request asks for, space-separated; `nil` for a sign-in.
    var scope: String? {
        guard case .consent(let request) = self else { return nil }
        return request.scope.joined(separator: " ")
    }

    /// Whether it still waits for an answer.
    var isPending: Bool {
        switch self {
        case .consent(let request): request.status == .pending
        case .signIn(let challenge): challenge.status == .pending
        }
    }

    func isExpired(at now: Date) -> Bool {
        switch self {
        case .consent(let request): request.isExpired(at: now)
        case .signIn(let challenge): challenge.isExpired(at: now)
        }
    }

    /// The CIBA request or sign-in push `id` names in `store`, whatever its state.
    static func find(id: BackchannelRequest.ID, in store: any WardenStore) async throws -> DeviceRequest? {
        if let request = try await store.backchannelRequest(id: id) { return .consent(request) }
        return try await store.loginChallenge(id: id).map(DeviceRequest.signIn)
    }
}

/// Device transactions (SPEC §7.2): one per (CIBA request or sign-in push, push-enrolled device), named by the
/// `txtkn` a device presents to fetch the consent and to answer; re-issued with a fresh token when a device
/// lists what is pending (SPEC §7.5).
struct DeviceTransactions: Sendable {
    let store: any WardenStore
    let cache: TenantCache
    let tokens: TransactionToken
    let issuer: URL
    let clock: any WardenClock

    /// A transaction named by a verified token, with its pending request and its device.
    struct Resolved: Sendable {
        var transaction: DeviceTransaction
        var request: DeviceRequest
        var enrollment: DeviceEnrollment
    }

    /// Stores one transaction of `request` per push-enrolled device of its user, all or none, and returns
    /// them with their devices.
    func create(for request: BackchannelRequest) async throws -> [(DeviceTransaction, DeviceEnrollment)] {
        let created = try await prepare(
            userID: request.userID, requestID: request.id, createdAt: request.createdAt, expiresAt: request.expiresAt)
        try await store.insertDeviceTransactions(created.map(\.0))
        return created
    }

    /// Stores `challenge` with one transaction per push-enrolled device of its user, all or none, and returns the
    /// transactions with their devices; `nil` when ``LoginChallenge/pendingLimit`` sign-in pushes already wait for
    /// the user (push fatigue, SPEC §12).
    func create(for challenge: LoginChallenge) async throws -> [(DeviceTransaction, DeviceEnrollment)]? {
        let created = try await prepare(
            userID: challenge.userID, requestID: challenge.id, createdAt: challenge.createdAt,
            expiresAt: challenge.expiresAt)
        let stored = try await store.insertLoginChallenge(
            challenge, transactions: created.map(\.0), pendingLimit: LoginChallenge.pendingLimit)
        return stored ? created : nil
    }

    /// One new transaction per push-enrolled device of `userID`, with its device.
    private func prepare(
        userID: String, requestID: BackchannelRequest.ID, createdAt: Date, expiresAt: Date
    ) async throws -> [(DeviceTransaction, DeviceEnrollment)] {
        try await store.deviceEnrollments(userID: userID).filter(\.isPushEnrolled).map { device in
            (
                DeviceTransaction(
                    id: RandomToken.identifier(prefix: "dtx_"), requestID: requestID, enrollmentID: device.id,
                    challenge: RandomToken.make(bytes: 16), createdAt: createdAt, expiresAt: expiresAt),
                device
            )
        }
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
        guard let request = try await DeviceRequest.find(id: transaction.requestID, in: store) else {
            throw ManagementError.transactionExpired
        }
        guard request.isPending else { throw ManagementError.loginTransactionNotFound }
        guard !request.isExpired(at: now) else { throw ManagementError.transactionExpired }
        return Resolved(transaction: transaction, request: request, enrollment: enrollment)
    }

    /// The notification of `transaction` (SPEC §7.2).
    func push(_ transaction: DeviceTransaction, of request: DeviceRequest, to enrollment: DeviceEnrollment)
        async throws -> DevicePush
    {
        let clientName = try await cache.client(id: request.clientID)?.client.name ?? request.clientID
        return switch request {
        case .consent(let request):
            DevicePush(
                transaction: transaction, request: request, enrollment: enrollment, clientName: clientName,
                issuer: issuer)
        case .signIn(let challenge):
            DevicePush(
                transaction: transaction, challenge: challenge, enrollment: enrollment, clientName: clientName,
                issuer: issuer)
        }
    }

    /// The device's pending transactions, oldest first, each with a fresh token (SPEC §7.5).
    func pending(for enrollment: DeviceEnrollment) async throws -> [(push: DevicePush, token: String)] {
        var result: [(push: DevicePush, token: String)] = []
        for transaction in try await store.pendingDeviceTransactions(enrollmentID: enrollment.id, now: clock.now()) {
            guard let request = try await DeviceRequest.find(id: transaction.requestID, in: store) else { continue }
            result.append(
                (try await push(transaction, of: request, to: enrollment), try await tokens.mint(for: transaction)))
        }
        return result
    }
}
