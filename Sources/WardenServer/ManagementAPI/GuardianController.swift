import Foundation
import Hummingbird
import WardenCore
import WardenWire

/// Guardian endpoints of the Management API (SPEC §7.1, §9, §12): enrolment tickets, a user's enrolments (push
/// devices and OTP-only authenticators), and deleting an enrolment.
struct GuardianController {
    let runtime: WardenRuntime
    var audit: ManagementAudit { ManagementAudit(runtime: runtime) }

    func addRoutes(to group: RouterGroup<WardenRequestContext>) {
        group.post("guardian/enrollments/ticket") { request, context in
            try await audit.change(
                "Create a Guardian enrollment ticket", scope: "create:guardian_enrollment_tickets", request, context
            ) {
                try await createTicket(request)
            }
        }
        group.get("users/:id/enrollments") { _, context in
            try context.requireScope("read:users")
            let userID = try ManagementRequest.parameter("id", of: context)
            guard try await runtime.store.user(id: userID) != nil else { throw UsersController.notFound }
            return Response.json(.array(try await enrollments(userID: userID)))
        }
        group.get("guardian/enrollments/:id") { _, context in
            try context.requireScope("read:guardian_enrollments")
            let id = try ManagementRequest.parameter("id", of: context)
            if let enrollment = try await runtime.store.deviceEnrollment(id: id) {
                return Response.json(Self.representation(enrollment))
            }
            guard let authenticator = try await runtime.store.otpAuthenticator(id: id) else { throw Self.notFound }
            return Response.json(Self.representation(authenticator))
        }
        group.delete("guardian/enrollments/:id") { request, context in
            try await audit.change(
                "Delete a Guardian enrollment", scope: "delete:guardian_enrollments", request, context
            ) {
                let id = try ManagementRequest.parameter("id", of: context)
                guard let userID = try await deleteEnrollment(id: id) else { throw Self.notFound }
                runtime.eventLog.record(
                    LogEvent(
                        date: runtime.clock.now(), type: .deviceUnenrolled,
                        description: "Guardian enrollment deleted through the Management API",
                        clientID: context.managementClientID, userID: userID,
                        details: ["enrollment_id": .string(id)]))
                return ManagementResponse.noContent
            }
        }
    }

    static let notFound = ManagementError.notFound("enrollment", "The enrollment does not exist.")

    /// The enrolments of `userID` as `GET /users/{id}/enrollments` shows them: push devices, then OTP-only
    /// authenticators. The console's user page lists the same (SPEC §14).
    func enrollments(userID: String) async throws -> [JSONValue] {
        let devices = try await runtime.store.deviceEnrollments(userID: userID).map(Self.representation)
        let authenticators = try await runtime.store.otpAuthenticators(userID: userID).map(Self.representation)
        return devices + authenticators
    }

    /// Deletes the device enrolment or OTP-only authenticator `id` (SPEC §12); its user, or `nil` when neither
    /// exists.
    private func deleteEnrollment(id: String) async throws -> String? {
        if let enrollment = try await runtime.store.deviceEnrollment(id: id) {
            return try await runtime.store.deleteDeviceEnrollment(id: id) ? enrollment.userID : nil
        }
        guard let authenticator = try await runtime.store.otpAuthenticator(id: id) else { return nil }
        return try await runtime.store.deleteOTPAuthenticator(id: id) ? authenticator.userID : nil
    }

    /// An enrolment as the Management API shows it (the vendor's Guardian enrollment object, SPEC §12): no key,
    /// no token, no secret; `last_auth` once the device proved the user.
    static func representation(_ enrollment: DeviceEnrollment) -> JSONValue {
        var members: [String: JSONValue] = [
            "id": .string(enrollment.id), "status": "confirmed", "type": enrollment.isPushEnrolled ? "pn" : "totp",
            "name": .string(enrollment.name), "identifier": .string(enrollment.identifier),
            "auth_method": "guardian", "enrolled_at": ManagementResponse.timestamp(enrollment.createdAt),
        ]
        if let push = enrollment.pushCredentials {
            members["push_service"] = .string(push.service.rawValue)
            members["push_disabled"] = .bool(enrollment.pushDisabled)
        }
        if let lastAuth = enrollment.lastAuthAt { members["last_auth"] = ManagementResponse.timestamp(lastAuth) }
        return .object(members)
    }

    /// An OTP-only authenticator as the Management API shows it (SPEC §12 `"type": "totp"`): no secret.
    static func representation(_ authenticator: OTPAuthenticator) -> JSONValue {
        var members: [String: JSONValue] = [
            "id": .string(authenticator.id), "status": "confirmed", "type": "totp",
            "name": .string(authenticator.name), "auth_method": "authenticator",
            "enrolled_at": ManagementResponse.timestamp(authenticator.createdAt),
        ]
        if let lastAuth = authenticator.lastAuthAt { members["last_auth"] = ManagementResponse.timestamp(lastAuth) }
        return .object(members)
    }

    /// `{"user_id", "send_mail"?}` → 200 `{"ticket_id", "ticket_url"}`; with `send_mail` the link is e-mailed
    /// to the user.
    private func createTicket(_ request: Request) async throws -> Response {
        let body = try await ManagementBody.read(request, allowed: ["user_id", "send_mail"])
        let userID = try body.requiredString("user_id")
        let sendMail = try body.bool("send_mail") ?? false
        guard let user = try await runtime.store.user(id: userID)?.user else {
            throw ManagementError.notFound("user", "The user does not exist.")
        }
        if sendMail, user.email == nil {
            throw body.invalid("send_mail", "The user has no e-mail address")
        }
        let ticket = EnrollmentTicket(user: user)
        let id = try await runtime.enrollmentTickets.issue(ticket)
        let url = EnrollmentTicket.url(issuer: runtime.issuer, ticketID: id)
        if sendMail, let email = user.email {
            try await runtime.deliveries.submit(
                kind: EnrollmentTicketMailDelivery.kind,
                payload: EnrollmentTicketMailDelivery.Payload(to: email, ticketURL: url).json,
                expiresAt: runtime.clock.now().addingTimeInterval(EnrollmentTicket.lifetime))
        }
        return Response.json(.object(["ticket_id": .string(id), "ticket_url": .string(url)]))
    }
}
