/// Where Warden's e-mail goes (SPEC §1 `--smtp-url`, §6.4 e-mail channel).
///
/// Two conformances: ``SMTPMailTransport`` hands each message to an SMTP server (RFC 5321), and
/// ``OutboxMailTransport`` writes it as an `.eml` file (an RFC 5322 message) when no server is configured.
/// A transport either accepts the whole message or throws; a caller that retries may see a message twice,
/// never half of one.
public protocol MailTransport: Sendable {
    /// Delivers one message, returning once the server (or the outbox folder) has taken responsibility for it
    /// (RFC 5321 §4.1.1.4: the `250` reply to the end of the mail data).
    func send(_ message: MailMessage) async throws
}
