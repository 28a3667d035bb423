import Foundation
import Hummingbird
import WardenCore

/// `/api/v2/guardian/enrollments/ticket` (SPEC §7.1, §9): enrolment tickets for authenticator devices.
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
        let id = try await EnrollmentTickets(runtime: runtime).issue(ticket)
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
