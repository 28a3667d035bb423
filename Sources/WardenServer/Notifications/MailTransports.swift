import Foundation
import Logging
import WardenMail

/// The transport `--smtp-url` selects (SPEC §1): SMTP when set, else the outbox folder.
enum MailTransports {
    static func make(configuration: WardenConfiguration, logger: Logger) throws -> any MailTransport {
        guard let url = configuration.smtpURL else {
            return OutboxMailTransport(path: configuration.outboxDirectory)
        }
        return try SMTPMailTransport(
            url: SMTPURL(url), heloName: configuration.issuer.host ?? "localhost")
    }
}
