import Foundation
import Logging
import WardenCore
import WardenMail
import WardenWire

/// The e-mails of the database connection's accounts (SPEC §15.1) and organizations' invitations (§19), in the style of the CIBA approval e-mail
/// (SPEC §6.4): plain text and HTML, the issuer named, the link, how long it works, and what to do if the person
/// did not ask. The link's ticket exists only in the job's payload until the message is sent (storage keeps its
/// SHA-256); the job is deleted once delivered.
struct AccountMailDelivery: DeliveryHandler {
    enum Purpose: String, Codable, Sendable {
        case verifyEmail = "verify_email"
        case resetPassword = "reset_password"
        /// An organization's invitation (SPEC §19), sent by the Management API.
        case organizationInvitation = "organization_invitation"
    }

    struct Payload: JobPayload {
        var purpose: Purpose
        var to: String
        var link: String
        var expiresAt: Date
        /// The application the person signed up or asked from, when known.
        var clientName: String?
        /// An invitation's inviter and organization (its shown name).
        var inviter: String? = nil
        var organization: String? = nil

        enum CodingKeys: String, CodingKey {
            case purpose, to, link, inviter, organization
            case expiresAt = "expires_at"
            case clientName = "client_name"
        }
    }

    static let kind: DeliveryJob.Kind = "account_mail"

    let mail: any MailTransport
    let from: MailAddress
    /// `{issuer}`, named in every message so that the person knows which service wrote.
    let issuer: String
    let logger: Logger

    var kind: DeliveryJob.Kind { Self.kind }

    func deliver(_ job: DeliveryJob) async throws {
        let payload = try Payload(of: job)
        let recipient = try DeliveryFailure.recipient(payload.to)
        do {
            try await mail.send(Self.message(payload, issuer: issuer, from: from, to: recipient))
        } catch let error as SMTPError where error.isPermanent && error.step == .rcptTo {
            throw DeliveryFailure.permanent("\(error)")
        }
    }

    func abandon(_ job: DeliveryJob, reason: String) async {
        logger.error("account e-mail abandoned", metadata: ["job": "\(job.id)", "reason": "\(reason)"])
    }

    /// The message for `payload`. The client's name passes through ``DisplayText/clean(_:)`` (SPEC §11).
    static func message(_ payload: Payload, issuer: String, from: MailAddress, to: MailAddress) -> MailMessage {
        let service =
            URLComponents(string: issuer)?.host.map { "\(EnrollmentTicket.issuerLabel) (\($0))" }
            ?? EnrollmentTicket.issuerLabel
        let application = payload.clientName.map(DisplayText.clean).map { " for \($0)" } ?? ""
        let expiry = BackchannelApprovalController.describe(payload.expiresAt)
        let subject: String
        let opening: String
        let action: String
        let unasked: String
        switch payload.purpose {
        case .verifyEmail:
            subject = "Verify your e-mail address"
            opening = "An account\(application) at \(service) was made with this e-mail address."
            action = "Verify your e-mail address"
            unasked =
                "If you did not sign up, ignore this message: the address stays unverified and nothing else happens."
        case .organizationInvitation:
            let inviter = DisplayText.clean(payload.inviter ?? "Someone")
            let organization = DisplayText.clean(payload.organization ?? "an organization")
            subject = "\(inviter) invited you to join \(organization)"
            opening = "\(inviter) invited you to join \(organization)\(application) at \(service)."
            action = "Accept the invitation"
            unasked = "If you do not know \(inviter), ignore this message: nothing happens without you."
        case .resetPassword:
            subject = "Reset your password"
            opening = "Someone asked to reset the password of your account\(application) at \(service)."
            action = "Choose a new password"
            unasked =
                "If you did not ask, ignore this message: your password stays as it is. Someone may have typed your "
                + "address by mistake."
        }
        let text = """
            \(opening)

            \(action) here (the link works once, until \(expiry)):
            \(payload.link)

            \(unasked)

            """
        let html = """
            <!doctype html><html><body style="font-family:system-ui,sans-serif;color:#1c2430">
            <p>\(MarkupText.escaped(opening))</p>
            <p><a href="\(MarkupText.escaped(payload.link))" style="display:inline-block;padding:12px 20px;\
            background:#2b59c3;color:#fff;border-radius:8px;text-decoration:none;font-weight:600">\
            \(MarkupText.escaped(action))</a></p>
            <p style="color:#4a5568">The link works once, until \(MarkupText.escaped(expiry)).</p>
            <p style="color:#4a5568">\(MarkupText.escaped(unasked))</p>
            </body></html>

            """
        return MailMessage(from: from, to: [to], subject: subject, text: text, html: html)
    }
}
