import Foundation
import WardenWire

extension Authenticator {
    /// Fetches the consent of a notification's transaction (SPEC §7.3): `GET {issuer}rich-consents/{txlnkid}`
    /// with `Authorization: MFA-DPoP {txtkn}` and an `MFA-DPoP` proof signed by the device key.
    ///
    /// - Throws: ``AuthenticatorError`` of kind ``AuthenticatorError/Kind/noConsent`` for a sign-in request
    ///   (``AuthenticationNotification/Kind/signIn``: no ``AuthenticationNotification/transactionLinkingID``; SPEC
    ///   §12 uses no consent for it); ``AuthenticatorError/Kind/enrollmentMismatch``
    ///   when it was sent to another enrollment; ``AuthenticatorError/Kind/server`` with `consent_not_found`,
    ///   `invalid_token`, `transaction_expired` … from the server.
    public func fetchConsent(for notification: AuthenticationNotification, enrollment: Enrollment) async throws
        -> Consent
    {
        try checkAddressed(notification, to: enrollment)
        guard let consentID = notification.transactionLinkingID else {
            throw AuthenticatorError(
                kind: .noConsent,
                detail: "a sign-in request (no txlnkid) has no consent to fetch; answer it with allow or reject")
        }
        return try await fetchConsent(
            id: consentID, transactionToken: notification.transactionToken, enrollment: enrollment)
    }

    /// Fetches a consent by id with a transaction token (SPEC §7.3); see ``fetchConsent(for:enrollment:)``.
    public func fetchConsent(id consentID: String, transactionToken: String, enrollment: Enrollment) async throws
        -> Consent
    {
        let key = try await key(for: enrollment)
        let target = try url(enrollment.baseURL, "rich-consents/" + Self.pathSegment(consentID))
        let proof = try DeviceJWT.dpopProof(
            method: "GET", url: target, transactionToken: transactionToken, key: key, now: now())
        let request = TransportRequest(
            method: "GET", url: target,
            headers: ["Authorization": "MFA-DPoP \(transactionToken)", "MFA-DPoP": proof])
        let data = try await perform(request, expecting: [200])
        return try decode(Consent.self, from: data, context: "consent")
    }

    /// Approves a transaction, a sign-in or a consent request alike (SPEC §7.4, §12): `POST {issuer}appliance-mfa/api/resolve-transaction` with
    /// `Authorization: Bearer {txtkn}` and a `challenge_response` with `auth0_guardian_accepted: true`.
    ///
    /// - Throws: ``AuthenticatorError`` with `login_transaction_not_found` when the request was already answered
    ///   (by this or another device), `transaction_expired` when it expired.
    public func allow(_ notification: AuthenticationNotification, enrollment: Enrollment) async throws {
        try await resolve(notification, enrollment: enrollment, accepted: true, reason: nil)
    }

    /// Rejects a transaction, a sign-in or a consent request alike (SPEC §7.4, §12), optionally with a reason (`auth0_guardian_reason`), e.g. `"hacked"`
    /// when the user did not start the request.
    public func reject(_ notification: AuthenticationNotification, enrollment: Enrollment, reason: String? = nil)
        async throws
    {
        try await resolve(notification, enrollment: enrollment, accepted: false, reason: reason)
    }

    private func resolve(
        _ notification: AuthenticationNotification, enrollment: Enrollment, accepted: Bool, reason: String?
    ) async throws {
        try checkAddressed(notification, to: enrollment)
        let key = try await key(for: enrollment)
        let jwt = try DeviceJWT.challengeResponse(
            deviceIdentifier: enrollment.deviceIdentifier, challenge: notification.challenge,
            issuer: enrollment.issuer, accepted: accepted, reason: reason, key: key, now: now())
        let request = TransportRequest(
            method: "POST", url: try url(enrollment.baseURL, "appliance-mfa/api/resolve-transaction"),
            headers: ["Authorization": "Bearer \(notification.transactionToken)"],
            body: try Self.encode(["challenge_response": jwt]))
        try await perform(request, expecting: [200, 204])
    }

    /// The device's pending transactions, sign-in and consent requests (SPEC §7.5, a Warden extension): `GET
    /// {issuer}appliance-mfa/api/device-accounts/{id}/transactions` with the device JWT. Use it when a push may
    /// have been lost, or as the delivery channel of a device without push. Entries that do not parse as SPEC
    /// §7.2 transactions are skipped.
    public func pendingTransactions(enrollment: Enrollment) async throws -> [AuthenticationNotification] {
        let request = try await deviceAccountRequest("GET", enrollment: enrollment, suffix: "/transactions")
        let data = try await perform(request, expecting: [200])
        let list = try decode(TransactionList.self, from: data, context: "transactions")
        return list.transactions.compactMap { AuthenticationNotification(payload: $0) }
    }

    /// Replaces the push credentials the server holds for this device (SPEC §7.1 `PATCH
    /// …/device-accounts/{id}`), e.g. after APNs issued a new device token; saves and returns the updated
    /// enrollment.
    public func updatePushCredentials(_ pushCredentials: PushCredentials, enrollment: Enrollment) async throws
        -> Enrollment
    {
        try await updateDevice(enrollment: enrollment, name: nil, pushCredentials: pushCredentials)
    }

    /// Updates the device's display name and/or push credentials (SPEC §7.1 `PATCH …/device-accounts/{id}`);
    /// `nil` leaves a value unchanged. Saves and returns the updated enrollment.
    public func updateDevice(enrollment: Enrollment, name: String? = nil, pushCredentials: PushCredentials? = nil)
        async throws -> Enrollment
    {
        var request = try await deviceAccountRequest("PATCH", enrollment: enrollment, suffix: "")
        request.body = try Self.encode(DeviceUpdateBody(name: name, pushCredentials: pushCredentials))
        let data = try await perform(request, expecting: [200])
        let updated = try decode(DeviceUpdateResponse.self, from: data, context: "device account")
        var enrollment = enrollment
        if let name = updated.name ?? name { enrollment.deviceName = name }
        if let identifier = updated.identifier { enrollment.deviceIdentifier = identifier }
        if let credentials = updated.pushCredentials ?? pushCredentials { enrollment.pushCredentials = credentials }
        try await keyStore.update(enrollment)
        return enrollment
    }

    /// Deletes the enrollment on the server (SPEC §7.1 `DELETE …/device-accounts/{id}`, 204) and forgets it and
    /// its key locally. An enrollment the server no longer knows (`device_account_not_found`) is forgotten too.
    public func unenroll(_ enrollment: Enrollment) async throws {
        let request = try await deviceAccountRequest("DELETE", enrollment: enrollment, suffix: "")
        do {
            try await perform(request, expecting: [200, 204])
        } catch let error as AuthenticatorError where error.errorCode == "device_account_not_found" {
            // Already gone on the server; fall through to forget it here.
        }
        try await keyStore.remove(enrollmentID: enrollment.id)
    }

    // MARK: - Helpers

    private func deviceAccountRequest(_ method: String, enrollment: Enrollment, suffix: String) async throws
        -> TransportRequest
    {
        let key = try await key(for: enrollment)
        let token = try DeviceJWT.deviceAccountToken(
            enrollmentID: enrollment.id, userID: enrollment.userID, issuer: enrollment.issuer, key: key, now: now())
        let target = try url(
            enrollment.baseURL, "appliance-mfa/api/device-accounts/" + Self.pathSegment(enrollment.id) + suffix)
        return TransportRequest(method: method, url: target, headers: ["Authorization": "Bearer \(token)"])
    }

    private func checkAddressed(_ notification: AuthenticationNotification, to enrollment: Enrollment) throws {
        guard notification.enrollmentID == enrollment.id else {
            throw AuthenticatorError(
                kind: .enrollmentMismatch,
                detail: "notification for \(notification.enrollmentID), enrollment \(enrollment.id)")
        }
    }

    static func pathSegment(_ value: String) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "/?#")
        return value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value
    }
}

/// SPEC §7.5 transaction list.
struct TransactionList: Decodable {
    var transactions: [JSONValue]
}

/// SPEC §7.1 PATCH body; absent members are left unchanged.
struct DeviceUpdateBody: Encodable {
    var name: String?
    var pushCredentials: PushCredentials?

    enum CodingKeys: String, CodingKey {
        case name
        case pushCredentials = "push_credentials"
    }
}

/// SPEC §7.1 PATCH response.
struct DeviceUpdateResponse: Decodable {
    var id: String?
    var identifier: String?
    var name: String?
    var pushCredentials: PushCredentials?

    enum CodingKeys: String, CodingKey {
        case id, identifier, name
        case pushCredentials = "push_credentials"
    }
}
