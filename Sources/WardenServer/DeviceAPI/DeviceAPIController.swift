import Foundation
import Hummingbird
import WardenCore
import WardenWire

/// The device API under `{issuer}appliance-mfa/api/` (SPEC §7): enrolment with a ticket, the device account
/// (update, delete, pending transactions) and the answer to a transaction.
struct DeviceAPIController {
    static let services: [PushService] = [.apns, .gcm, .fcm, .stream, .webhook]

    let runtime: WardenRuntime

    var authorization: DeviceAccountAuthorization {
        DeviceAccountAuthorization(
            store: runtime.store, verifier: DeviceJWTVerifier(clock: runtime.clock), issuer: runtime.issuer)
    }

    func addRoutes(to router: some RouterMethods<WardenRequestContext>) {
        let api = router.group("appliance-mfa/api")
        api.post("enroll") { request, context in try await enroll(request, context) }
        api.patch("device-accounts/:id") { request, context in try await update(request, context) }
        api.delete("device-accounts/:id") { request, context in try await unenroll(request, context) }
        api.get("device-accounts/:id/transactions") { request, context in
            let enrollment = try await authorization.authorize(request, enrollmentID: try Self.id(context))
            let pending = try await runtime.deviceTransactions.pending(for: enrollment)
            // Each the §7.2 fields, plus the push's `alert` (a Warden extension: what the push would show).
            let list = pending.map {
                JSONValue.object(
                    Dictionary(
                        uniqueKeysWithValues: $0.push.fields(transactionToken: $0.token) + [("alert", $0.push.alert)]))
            }
            return Response.json(.object(["transactions": .array(list)]), noStore: true)
        }
        ResolveTransaction(runtime: runtime).addRoutes(to: api)
    }

    /// `POST enroll` with `Authorization: Ticket id="…"` (SPEC §7.1): consumes the ticket and stores the device.
    private func enroll(_ request: Request, _ context: WardenRequestContext) async throws -> Response {
        guard let ticketID = Self.ticketID(request) else {
            throw ManagementError.invalidToken("Missing authorization: expected 'Ticket id=\"…\"'")
        }
        let body = ManagementBody(try await ManagementRequest.object(request))
        let identifier = try Self.identifier(body)
        let name = try Self.name(body)
        let push = try Self.pushCredentials(body)
        let (modulus, exponent) = try Self.publicKey(body)
        let tickets = runtime.enrollmentTickets
        // Refuse a taken identifier before the ticket is used, so the device can retry with another.
        guard let ticket = try await tickets.peek(ticketID) else { throw ManagementError.enrollmentTransactionNotFound }
        if try await runtime.store.deviceEnrollment(userID: ticket.userID, identifier: identifier) != nil {
            throw ManagementError.alreadyEnrolled
        }
        guard try await tickets.consume(ticketID) != nil else { throw ManagementError.enrollmentTransactionNotFound }
        let token = RandomToken.make()
        let enrollment = DeviceEnrollment(
            id: ticket.enrollmentID, userID: ticket.userID, identifier: identifier, name: name, pushCredentials: push,
            publicKeyModulus: modulus, publicKeyExponent: exponent, tokenHash: SecretHash.sha256Hex(token),
            totpSecret: ticket.totpSecret, createdAt: runtime.clock.now())
        do {
            try await runtime.store.insertDeviceEnrollment(enrollment)
        } catch StorageError.conflict(_) {
            throw ManagementError.alreadyEnrolled
        }
        log(
            .deviceEnrolled, enrollment, request, context,
            "Guardian enrollment complete" + (push.map { " (push: \($0.service))" } ?? ""))
        return Response.json(
            .object([
                "id": .string(enrollment.id), "url": .string(runtime.issuer + "appliance-mfa"),
                "issuer": .string(EnrollmentTicket.issuerLabel), "user_id": .string(enrollment.userID),
                "token": .string(token),
                "totp": .object([
                    "secret": .string(enrollment.totpSecret), "algorithm": "sha1", "digits": 6, "period": 30,
                ]),
            ]), noStore: true)
    }

    /// `PATCH device-accounts/{id}` (SPEC §7.1): `identifier`, `name`, `push_credentials` (`null` removes them).
    private func update(_ request: Request, _ context: WardenRequestContext) async throws -> Response {
        var enrollment = try await authorization.authorize(request, enrollmentID: try Self.id(context))
        let body = ManagementBody.init(
            try await ManagementRequest.object(request, allowed: ["identifier", "name", "push_credentials"]))
        if body.has("identifier") { enrollment.identifier = try Self.identifier(body) }
        if body.has("name") { enrollment.name = try Self.name(body) }
        if body.has("push_credentials") {
            enrollment.pushCredentials = try Self.pushCredentials(body)
            enrollment.pushDisabled = false
        }
        do {
            try await runtime.store.updateDeviceEnrollment(enrollment)
        } catch StorageError.conflict(_) {
            throw ManagementError.alreadyEnrolled
        } catch StorageError.notFound {
            throw ManagementError.deviceAccountNotFound
        }
        log(.deviceUpdated, enrollment, request, context, "Guardian device account updated")
        return Response.json(
            .object([
                "id": .string(enrollment.id), "identifier": .string(enrollment.identifier),
                "name": .string(enrollment.name),
                "push_credentials": enrollment.pushCredentials.map {
                    .object(["service": .string($0.service.rawValue), "token": .string($0.token)])
                } ?? .null,
            ]))
    }

    /// `DELETE device-accounts/{id}` (SPEC §7.1) → 204.
    private func unenroll(_ request: Request, _ context: WardenRequestContext) async throws -> Response {
        let enrollment = try await authorization.authorize(request, enrollmentID: try Self.id(context))
        guard try await runtime.store.deleteDeviceEnrollment(id: enrollment.id) else {
            throw ManagementError.deviceAccountNotFound
        }
        log(.deviceUnenrolled, enrollment, request, context, "Guardian device unenrolled by the device")
        return Response(status: .noContent)
    }

    private func log(
        _ type: LogEventType, _ enrollment: DeviceEnrollment, _ request: Request, _ context: WardenRequestContext,
        _ description: String
    ) {
        runtime.eventLog.record(
            LogEvent(
                date: runtime.clock.now(), type: type, description: description,
                ip: ClientAddress.ip(of: request, context: context, trusted: runtime.trustedProxies),
                userAgent: request.headers[.userAgent], userID: enrollment.userID,
                details: ["enrollment_id": .string(enrollment.id), "device_name": .string(enrollment.name)]))
    }

    // MARK: - Reading the request

    static func id(_ context: WardenRequestContext) throws -> String {
        try ManagementRequest.parameter("id", of: context)
    }

    /// The id of `Authorization: Ticket id="…"` (quotes optional).
    static func ticketID(_ request: Request) -> String? {
        guard let credentials = DeviceAccountAuthorization.credentials(request, scheme: "Ticket"),
            credentials.hasPrefix("id=")
        else { return nil }
        var id = credentials.dropFirst(3)
        if id.hasPrefix("\""), id.hasSuffix("\""), id.count >= 2 { id = id.dropFirst().dropLast() }
        return id.isEmpty ? nil : String(id)
    }

    /// `identifier`: required, 1–256 characters.
    private static func identifier(_ body: ManagementBody) throws -> String {
        let identifier = try body.requiredString("identifier")
        guard !identifier.isEmpty, identifier.count <= 256 else {
            throw body.invalid("identifier", "String length must be between 1 and 256")
        }
        return identifier
    }

    /// `name`: required, 1–256 characters.
    private static func name(_ body: ManagementBody) throws -> String {
        let name = try body.requiredString("name")
        guard !name.isEmpty, name.count <= 256 else {
            throw body.invalid("name", "String length must be between 1 and 256")
        }
        return name
    }

    /// `push_credentials`: `{"service", "token"}` with a service of SPEC §7.1, or absent / `null`.
    private static func pushCredentials(_ body: ManagementBody) throws -> DeviceEnrollment.PushCredentials? {
        guard let credentials = try body.object("push_credentials", allowed: ["service", "token"]) else {
            return nil
        }
        let service = PushService(rawValue: try credentials.requiredString("service").uppercased())
        guard services.contains(service) else {
            throw credentials.invalid("service", "Must be one of " + services.map(\.rawValue).joined(separator: ", "))
        }
        let token = try credentials.requiredString("token")
        guard !token.isEmpty, token.utf8.count <= 4096 else {
            throw credentials.invalid("token", "String length must be between 1 and 4096")
        }
        return .init(service: service, token: token)
    }

    /// `public_key`: an RSA JWK (`kty` RSA; `alg` RS256 and `use` sig when given) of at least 2048 bits; returns
    /// `n` and `e` without leading zero bytes.
    private static func publicKey(_ body: ManagementBody) throws -> (String, String) {
        guard let key = try body.jsonObject("public_key") else {
            throw body.invalid("public_key", "Missing required property: public_key")
        }
        guard key["kty"]?.stringValue == "RSA", key["alg"].map({ $0.stringValue == "RS256" }) ?? true,
            key["use"].map({ $0.stringValue == "sig" }) ?? true, let n = key["n"]?.stringValue,
            let e = key["e"]?.stringValue, (try? JWSVerifier(rsaModulus: n, exponent: e)) != nil,
            let modulus = Base64URL.decode(n), let exponent = Base64URL.decode(e)
        else {
            throw body.invalid("public_key", "Expected an RS256 RSA public JWK of at least 2048 bits")
        }
        return (
            Base64URL.encode(modulus.drop(while: { $0 == 0 })), Base64URL.encode(exponent.drop(while: { $0 == 0 }))
        )
    }
}
