import Foundation
import Logging
import WardenCore
import WardenMail

/// The approval e-mail of a CIBA request (SPEC §6.4): plain text and HTML naming the client, showing the
/// binding message and a summary of the authorization details, with the link to `{issuer}u/ciba/{token}`.
/// Sent once; a request decided or expired before the attempt is not mailed. Logs `gd_send_email`.
struct BackchannelMailDelivery: DeliveryHandler {
    /// The job's input. The link's token exists only here until the message is sent (storage keeps its
    /// SHA-256 on the request); the job is deleted once delivered.
    struct Payload: JobPayload {
        var requestID: BackchannelRequest.ID
        var approvalToken: String
        enum CodingKeys: String, CodingKey {
            case requestID = "request_id"
            case approvalToken = "approval_token"
        }
    }

    let requests: any BackchannelRequestStore
    let users: any UserStore
    /// Where the client's name is read.
    let cache: TenantCache
    let mail: any MailTransport
    let eventLog: EventLog
    let clock: any WardenClock
    /// `{issuer}` with its trailing slash, the base of the approval link.
    let issuer: String
    let from: MailAddress
    let logger: Logger

    /// A delivery mailing, through `mail` and as `from`, the approval link of the pending requests of
    /// `requests` to the address of their user in `users`.
    init(
        requests: any BackchannelRequestStore, users: any UserStore, cache: TenantCache, mail: any MailTransport,
        eventLog: EventLog, clock: any WardenClock, issuer: String, from: MailAddress, logger: Logger
    ) {
        self.requests = requests
        self.users = users
        self.cache = cache
        self.mail = mail
        self.eventLog = eventLog
        self.clock = clock
        self.issuer = issuer
        self.from = from
        self.logger = logger
    }

    var kind: DeliveryJob.Kind { .backchannelMail }

    func deliver(_ job: DeliveryJob) async throws {
        let payload = try Payload(of: job)
        guard let request = try await requests.backchannelRequest(id: payload.requestID), request.status == .pending,
            !request.isExpired(at: clock.now())
        else { return }  // answered or gone: nothing to ask any more
        guard let user = try await users.user(id: request.userID)?.user, let address = user.email else {
            throw DeliveryFailure.permanent("the user has no e-mail address any more")
        }
        let clientName = try await cache.client(id: request.clientID)?.client.name ?? "An application"
        let recipient = try DeliveryFailure.recipient(address)
        let message = Self.message(
            request: request, clientName: clientName, from: from, to: recipient,
            link: issuer + "u/ciba/" + payload.approvalToken)
        do {
            try await mail.send(message)
        } catch let error as SMTPError where error.isPermanent && error.step == .rcptTo {
            // The server refuses this recipient for good; other refusals (authentication, the sender) are the
            // server's configuration, which an operator can fix while the job waits.
            throw DeliveryFailure.permanent("\(error)")
        }
        eventLog.record(
            LogEvent(
                date: clock.now(), type: .sendEmail, description: "Approval e-mail sent for \(clientName)",
                clientID: request.clientID, clientName: clientName, userID: user.userID, userName: address,
                audience: request.audience, scope: request.scope.joined(separator: " ")))
    }

    func abandon(_ job: DeliveryJob, reason: String) async {
        logger.error("approval e-mail abandoned", metadata: ["job": "\(job.id)", "reason": "\(reason)"])
    }

    /// The message for `request`. The client's name, the binding message and the authorization details pass
    /// through ``DisplayText/clean(_:)`` (SPEC §11): none of them can add a line of its own (a fake
    /// "Approve at:" link above the real one) or reorder the text; each detail is a labelled line.
    static func message(
        request: BackchannelRequest, clientName rawClientName: String, from: MailAddress, to: MailAddress,
        link: String
    ) -> MailMessage {
        let clientName = DisplayText.clean(rawClientName)
        let bindingMessage = DisplayText.clean(request.bindingMessage)
        let sections = AuthorizationDetailsDisplay.sections(request.authorizationDetails)
        let expiry = BackchannelApprovalController.describe(request.expiresAt)
        var text = """
            \(clientName) asks for your approval.

            Binding message: \(bindingMessage)
            (check that it matches what the application shows)

            """
        if let audience = request.audience { text += "Access to: \(DisplayText.clean(audience))\n" }
        let scopes = request.scope.filter { $0 != "openid" }.map(DisplayText.clean)
        if !scopes.isEmpty { text += "Permissions: \(scopes.joined(separator: ", "))\n" }
        for section in sections {
            text += "\n\(section.heading)\n"
            for line in AuthorizationDetailsDisplay.textLines(section.rows, indent: "  ") { text += line + "\n" }
        }
        text += """

            Approve or deny it here (the link works until \(expiry)):
            \(link)

            If you did not expect this request, deny it.

            """
        var html = """
            <!doctype html><html><body style="font-family:system-ui,sans-serif;color:#1c2430">
            <p><strong>\(MarkupText.escaped(clientName))</strong> asks for your approval.</p>
            <p style="padding:12px;background:#eef3fd;border-radius:8px;font-size:18px;font-weight:600">\
            \(MarkupText.escaped(bindingMessage))</p>
            <p style="color:#4a5568">Check that this matches what the application shows.</p>

            """
        if let audience = request.audience {
            html += "<p>Access to <strong>\(MarkupText.escaped(DisplayText.clean(audience)))</strong></p>\n"
        }
        if !scopes.isEmpty {
            html += "<ul>" + scopes.map { "<li>Permission: \(MarkupText.escaped($0))</li>" }.joined() + "</ul>\n"
        }
        for section in sections {
            html += "<p style=\"margin:16px 0 4px;font-weight:600\">\(MarkupText.escaped(section.heading))</p>\n<table>"
            for row in section.rows {
                html +=
                    "<tr><td style=\"padding:2px 12px 2px \(row.depth * 16)px;color:#4a5568\">\(MarkupText.escaped(row.label))</td>"
                    + "<td style=\"padding:2px 0;font-weight:600\">\(MarkupText.escaped(row.value))</td></tr>"
            }
            html += "</table>\n"
        }
        html += """
            <p><a href="\(MarkupText.escaped(link))" style="display:inline-block;padding:12px 20px;background:#2b59c3;\
            color:#fff;border-radius:8px;text-decoration:none;font-weight:600">Review and approve</a></p>
            <p style="color:#4a5568">The link works until \(MarkupText.escaped(expiry)). If you did not expect this request, \
            deny it.</p>
            </body></html>

            """
        return MailMessage(
            from: from, to: [to], subject: "\(clientName) asks for your approval: \(bindingMessage)",
            text: text, html: html)
    }
}
