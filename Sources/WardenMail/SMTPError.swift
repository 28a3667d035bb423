/// Why ``SMTPMailTransport`` could not hand a message over: the step of the SMTP dialogue (RFC 5321 §3, §4.1),
/// the server's reply code when there was one (§4.2) and its text, or what went wrong locally (connection,
/// TLS, timeout).
///
/// The text comes from the server or from Warden, never from the commands Warden sent: a password (AUTH,
/// RFC 4954) can never appear in it. Two errors are equal when step and code are.
public struct SMTPError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A step of the dialogue. An open set of names (compare with the static members).
    public struct Step: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// TCP connection (and name resolution).
        public static let connect = Step(rawValue: "connect")
        /// The server's `220` greeting (RFC 5321 §4.3.1, §3.1).
        public static let greeting = Step(rawValue: "greeting")
        /// `EHLO` (RFC 5321 §4.1.1.1).
        public static let ehlo = Step(rawValue: "EHLO")
        /// `HELO`, after a server refused `EHLO` (RFC 5321 §3.2).
        public static let helo = Step(rawValue: "HELO")
        /// `STARTTLS` (RFC 3207 §4), or its absence under `?starttls=required`.
        public static let startTLS = Step(rawValue: "STARTTLS")
        /// The TLS handshake, certificate verification included (RFC 3207 §4.1, RFC 8314 §3.3).
        public static let tlsHandshake = Step(rawValue: "TLS handshake")
        /// `AUTH` (RFC 4954 §4), or refusing to send credentials.
        public static let auth = Step(rawValue: "AUTH")
        /// `MAIL FROM` (RFC 5321 §4.1.1.2).
        public static let mailFrom = Step(rawValue: "MAIL FROM")
        /// `RCPT TO` (RFC 5321 §4.1.1.3).
        public static let rcptTo = Step(rawValue: "RCPT TO")
        /// `DATA` and its `354` (RFC 5321 §4.1.1.4).
        public static let data = Step(rawValue: "DATA")
        /// The message content and its final `250` (RFC 5321 §4.1.1.4, §4.5.2).
        public static let endOfData = Step(rawValue: "end of data")
        /// `QUIT` (RFC 5321 §4.1.1.10).
        public static let quit = Step(rawValue: "QUIT")
    }

    public let step: Step
    /// The server's reply code, `nil` when the step failed without a reply (connection, TLS, timeout, a local
    /// refusal).
    public let code: Int?
    /// The server's reply text (lines joined by a space) or the local reason.
    public let message: String

    public init(step: Step, code: Int?, message: String) {
        self.step = step
        self.code = code
        self.message = message
    }

    /// A `5yz` reply (RFC 5321 §4.2.1: permanent negative completion): sending the same message again will
    /// fail again. `4yz` replies and failures without a reply may succeed later.
    public var isPermanent: Bool {
        code.map { (500...599).contains($0) } ?? false
    }

    public var description: String {
        "SMTP \(step) failed: " + (code.map { "\($0) " } ?? "") + message
    }

    public static func == (lhs: SMTPError, rhs: SMTPError) -> Bool {
        lhs.step == rhs.step && lhs.code == rhs.code
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(step)
        hasher.combine(code)
    }
}
