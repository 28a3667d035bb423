public import Foundation

extension Authenticator {
    /// Enrolls this device from the QR code's URI (SPEC §7.1).
    ///
    /// Generates a device key, sends `POST {base_url}appliance-mfa/api/enroll` with
    /// `Authorization: Ticket id="{enrollment_tx_id}"`, and saves the ``Enrollment`` and key in ``keyStore``. The
    /// enrollment keeps the response's `totp` (else the URI's `secret`, `algorithm`, `digits`, `period`), so
    /// ``TOTPParameters/code(at:)`` can show the `otp` factor's codes (SPEC §12).
    ///
    /// - Parameters:
    ///   - uri: The `otpauth://` URI, as a string or parsed ``EnrollmentURI``.
    ///   - identifier: A stable identifier of this device install (the `iss` of its challenge responses); the
    ///     server refuses a second enrollment of the same identifier for a user (`already_enrolled`).
    ///   - name: A display name for the device.
    ///   - pushCredentials: How the server reaches the device; `nil` to rely on
    ///     ``pendingTransactions(enrollment:)`` polling (SPEC §7.5).
    public func enroll(
        uri: String, identifier: String, name: String, pushCredentials: PushCredentials? = nil
    ) async throws -> Enrollment {
        guard let parsed = EnrollmentURI(uri) else {
            throw AuthenticatorError(kind: .invalidEnrollmentURI, detail: "not an otpauth enrollment URI")
        }
        return try await enroll(uri: parsed, identifier: identifier, name: name, pushCredentials: pushCredentials)
    }

    /// Enrolls this device from a parsed enrollment URI (SPEC §7.1), as the string-URI variant does.
    public func enroll(
        uri: EnrollmentURI, identifier: String, name: String, pushCredentials: PushCredentials? = nil
    ) async throws -> Enrollment {
        var (enrollment, key) = try await register(
            ticket: uri.ticketID, baseURL: uri.baseURL, identifier: identifier, name: name,
            pushCredentials: pushCredentials)
        enrollment.accountName = uri.accountName
        if enrollment.issuerLabel == nil { enrollment.issuerLabel = uri.issuer }
        if enrollment.totp == nil, let secret = uri.secret {
            enrollment.totp = TOTPParameters(
                secret: secret, algorithm: uri.algorithm, digits: uri.digits, period: uri.period)
        }
        try await keyStore.save(enrollment, key: key)
        return enrollment
    }

    /// Enrolls this device with an enrollment ticket id and the issuer's base URL (SPEC §7.1), for apps that
    /// receive the ticket another way than a QR code.
    public func enroll(
        ticket: String, baseURL: URL, identifier: String, name: String, pushCredentials: PushCredentials? = nil
    ) async throws -> Enrollment {
        let (enrollment, key) = try await register(
            ticket: ticket, baseURL: baseURL, identifier: identifier, name: name, pushCredentials: pushCredentials)
        try await keyStore.save(enrollment, key: key)
        return enrollment
    }

    /// Generates a key and sends the SPEC §7.1 enroll request; stores nothing.
    private func register(
        ticket: String, baseURL: URL, identifier: String, name: String, pushCredentials: PushCredentials?
    ) async throws -> (Enrollment, DeviceKey) {
        guard let base = EnrollmentURI.normalizedBaseURL(baseURL.absoluteString) else {
            throw AuthenticatorError(kind: .invalidEnrollmentURI, detail: "base URL must be http(s): \(baseURL)")
        }
        let key: DeviceKey
        do {
            key = try DeviceKey.generate()
        } catch {
            throw AuthenticatorError(kind: .signing, detail: "key generation failed: \(error)")
        }
        let body = EnrollRequestBody(
            identifier: identifier, name: name, pushCredentials: pushCredentials, publicKey: key.publicJWK)
        let request = TransportRequest(
            method: "POST", url: try url(base, "appliance-mfa/api/enroll"),
            headers: ["Authorization": "Ticket id=\"\(ticket)\""], body: try Self.encode(body))
        let data = try await perform(request, expecting: [200, 201])
        let response = try decode(EnrollResponseBody.self, from: data, context: "enroll response")
        let enrollment = Enrollment(
            id: response.id, userID: response.userID, baseURL: base, issuerLabel: response.issuer,
            deviceIdentifier: identifier, deviceName: name, deviceAccountToken: response.token,
            pushCredentials: pushCredentials, totp: response.totp)
        return (enrollment, key)
    }
}

/// SPEC §7.1 enroll request body.
struct EnrollRequestBody: Encodable {
    var identifier: String
    var name: String
    var pushCredentials: PushCredentials?
    var publicKey: PublicJWK

    enum CodingKeys: String, CodingKey {
        case identifier, name
        case pushCredentials = "push_credentials"
        case publicKey = "public_key"
    }
}

/// SPEC §7.1 enroll response body.
struct EnrollResponseBody: Decodable {
    var id: String
    var url: String?
    var issuer: String?
    var userID: String
    var token: String?
    var totp: TOTPParameters?

    enum CodingKeys: String, CodingKey {
        case id, url, issuer, token, totp
        case userID = "user_id"
    }
}
