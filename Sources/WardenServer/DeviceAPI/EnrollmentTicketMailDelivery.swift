import Foundation
import Logging
import WardenCore
import WardenMail
import WardenWire

/// The e-mail of an enrolment ticket (`send_mail: true`, SPEC §7.1): the link to the page with the QR code.
struct EnrollmentTicketMailDelivery: DeliveryHandler {
    /// The job's input; the ticket link exists only here until the message is sent.
    struct Payload: JobPayload {
        var to: String
        var ticketURL: String
        enum CodingKeys: String, CodingKey {
            case to
            case ticketURL = "ticket_url"
        }
    }

    static let kind: DeliveryJob.Kind = "enrollment_mail"

    let mail: any MailTransport
    let from: MailAddress
    let logger: Logger

    var kind: DeliveryJob.Kind { Self.kind }

    func deliver(_ job: DeliveryJob) async throws {
        let payload = try Payload(of: job)
        let recipient = try DeliveryFailure.recipient(payload.to)
        let text = """
            Set up your authenticator to approve sign-ins and requests.

            Open this link on your computer and scan the QR code with the authenticator app, or follow
            the instructions on the page (the link works for 7 days and only once):
            \(payload.ticketURL)

            If you did not ask for this, ignore this message.

            """
        try await mail.send(MailMessage(from: from, to: [recipient], subject: "Set up your authenticator", text: text))
    }

    func abandon(_ job: DeliveryJob, reason: String) async {
        logger.error("enrolment e-mail abandoned", metadata: ["job": "\(job.id)", "reason": "\(reason)"])
    }
}
