import Hummingbird
import Logging
import WardenCore

/// `GET /u/guardian/enroll?ticket=…` (SPEC §7.1): the hosted page of an enrolment ticket — a QR code of the
/// `otpauth://` URI for the authenticator app, the URI as text, and the terminal authenticator's command.
/// Viewing does not use the ticket; the device's enrolment does.
struct EnrollmentTicketPageController: Sendable {
    let tickets: EnrollmentTickets
    /// `{issuer}` with its trailing slash, the base of the ticket's URI and link.
    let issuer: String

    /// The pages of the tickets of `tickets`.
    init(tickets: EnrollmentTickets, issuer: String) {
        self.tickets = tickets
        self.issuer = issuer
    }

    func addRoutes(to router: Router<WardenRequestContext>) {
        router.get("u/guardian/enroll") { request, context in
            await HostedPages.respond(context) { try await page(request) }
        }
    }

    private func page(_ request: Request) async throws -> Response {
        guard let id = QueryParameters(request.uri.query)?["ticket"], !id.isEmpty,
            let ticket = try await tickets.peek(id)
        else { throw Self.unknownTicket }
        let uri = ticket.otpauthURI(ticketID: id, issuer: issuer)
        let url = EnrollmentTicket.url(issuer: issuer, ticketID: id)
        let qr = try QRCode(encoding: uri).svg(title: "QR code to enrol your authenticator")
        return PageRenderer.shared.response(
            EnrollmentTicketPage(
                email: ticket.userEmail, qrCode: qr, uri: uri, command: EnrollmentTicket.enrollCommand(url: url)))
    }

    static let unknownTicket = NoticePage(
        title: "Link not valid", message: "This enrolment link is not valid, was already used or has expired.",
        advice: "Ask your administrator for a new one.", status: .notFound)
}
