public import Foundation

/// One e-mail: a plain-text body and, usually, an HTML alternative of it (SPEC §6.4).
///
/// ``rendered(date:messageID:)`` writes the RFC 5322 message both transports deliver:
///
/// - Header fields `Date` (§3.3, §3.6.1), `From`, `To` (§3.6.2, §3.6.3), `Subject` (§3.6.5), `Message-ID`
///   (§3.6.4), `MIME-Version` (RFC 2045 §4), then ``headers``. Non-ASCII text in the subject and in display
///   names becomes RFC 2047 encoded-words (`=?UTF-8?B?…?=`); long fields are folded (§2.2.3).
/// - With ``html``, a `multipart/alternative` body (RFC 2046 §5.1.4): the text part first, then the HTML part
///   (readers show the last part they can). Without it, a single `text/plain` body.
/// - Every text part is `charset=UTF-8` with `Content-Transfer-Encoding: quoted-printable` (RFC 2045 §6.7), so
///   the message is 7-bit and no line exceeds 76 characters: any SMTP server takes it without 8BITMIME.
/// - The boundary is random and starts with `=_`, which quoted-printable output can never contain (RFC 2045
///   §6.7 allows `=` only before two hex digits or a line break), so it cannot occur in a part (RFC 2046 §5.1.1).
/// - Lines end with CRLF throughout (RFC 5322 §2.1).
public struct MailMessage: Sendable, Hashable {
    /// An extra header field, such as `Auto-Submitted: auto-generated` (RFC 3834 §5) or `X-Warden-Request`.
    ///
    /// The name should be printable ASCII without `:` (RFC 5322 §2.2 `ftext`); other characters are dropped
    /// from it. Fields that the message writes itself (`Date`, `From`, `To`, `Subject`, `Message-ID`,
    /// `MIME-Version`, `Content-*`) are ignored. The value is unstructured text, encoded like the subject.
    public struct Header: Sendable, Hashable {
        public var name: String
        public var value: String

        public init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    public var from: MailAddress
    public var to: [MailAddress]
    public var subject: String
    /// The `text/plain` part; any line breaks (LF, CRLF or CR) become CRLF on the wire.
    public var text: String
    /// The `text/html` alternative; `nil` for a plain-text message.
    public var html: String?
    public var headers: [Header]

    public init(
        from: MailAddress, to: [MailAddress], subject: String, text: String, html: String? = nil,
        headers: [Header] = []
    ) {
        self.from = from
        self.to = to
        self.subject = subject
        self.text = text
        self.html = html
        self.headers = headers
    }

    /// The whole message (header fields, blank line, body) with CRLF line endings, 7-bit clean.
    ///
    /// - Parameters:
    ///   - date: the `Date` field, written in UTC (RFC 5322 §3.3 `date-time`).
    ///   - messageID: the `Message-ID` (RFC 5322 §3.6.4), with or without its angle brackets; see
    ///     ``makeMessageID(domain:)``.
    public func rendered(date: Date, messageID: String) -> String {
        rendered(date: date, messageID: messageID, boundary: Self.makeBoundary())
    }

    /// A fresh, globally unique `<…@domain>` message id (RFC 5322 §3.6.4): the time and 128 random bits.
    public static func makeMessageID(domain: String) -> String {
        let milliseconds = UInt64(max(0, Date().timeIntervalSince1970 * 1000))
        return "<" + String(milliseconds, radix: 36) + "." + randomHex(bytes: 16) + "@" + domain + ">"
    }

    /// Header field names that ``headers`` cannot set (compared in lower case).
    static let reservedHeaderNames: Set<String> = ["date", "from", "to", "subject", "message-id", "mime-version"]

    /// ``rendered(date:messageID:)`` with a given boundary (for tests).
    func rendered(date: Date, messageID: String, boundary: String) -> String {
        var output = "Date: " + Self.rfc5322Date(date) + "\r\n"
        output += MailHeaderEncoding.addressList(name: "From", [from])
        output += MailHeaderEncoding.addressList(name: "To", to)
        output += MailHeaderEncoding.unstructured(name: "Subject", value: subject)
        output += "Message-ID: " + Self.normalizedMessageID(messageID) + "\r\n"
        output += "MIME-Version: 1.0\r\n"
        for header in headers {
            let name = String(header.name.unicodeScalars.filter { (33...126).contains($0.value) && $0 != ":" })
            let lowercased = name.lowercased()
            guard !name.isEmpty, !Self.reservedHeaderNames.contains(lowercased), !lowercased.hasPrefix("content-")
            else { continue }
            output += MailHeaderEncoding.unstructured(name: name, value: header.value)
        }
        guard let html else {
            // The body's last line ends with CRLF like every other (RFC 5322 §2.1), without adding one.
            let part = Self.textPart(subtype: "plain", text)
            return output + part + (part.hasSuffix("\r\n") ? "" : "\r\n")
        }
        output += "Content-Type: multipart/alternative;\r\n boundary=\"\(boundary)\"\r\n"
        output += "\r\n"
        output += "This is a multi-part message in MIME format.\r\n"
        output += "--\(boundary)\r\n" + Self.textPart(subtype: "plain", text) + "\r\n"
        output += "--\(boundary)\r\n" + Self.textPart(subtype: "html", html) + "\r\n"
        output += "--\(boundary)--\r\n"
        return output
    }

    /// A text entity's header fields, blank line and quoted-printable content (no final CRLF: in a multipart
    /// body that one belongs to the next boundary, RFC 2046 §5.1.1).
    private static func textPart(subtype: String, _ content: String) -> String {
        "Content-Type: text/\(subtype); charset=UTF-8\r\n" + "Content-Transfer-Encoding: quoted-printable\r\n"
            + "\r\n" + QuotedPrintable.encode(content)
    }

    /// `<id>`, brackets added when missing, white space and control characters removed.
    private static func normalizedMessageID(_ id: String) -> String {
        let id = String(id.unicodeScalars.filter { (33...126).contains($0.value) })
        return id.hasPrefix("<") && id.hasSuffix(">") ? id : "<" + id + ">"
    }

    /// `=_warden_` and 96 random bits in hex.
    private static func makeBoundary() -> String {
        "=_warden_" + randomHex(bytes: 12)
    }

    private static func randomHex(bytes: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<bytes).map { _ in
            let byte = UInt8.random(in: 0...255, using: &generator)
            return String(byte >> 4, radix: 16) + String(byte & 0x0F, radix: 16)
        }.joined()
    }

    /// `Fri, 13 Feb 2026 09:30:00 +0000` (RFC 5322 §3.3), in UTC with English names whatever the locale.
    static func rfc5322Date(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second, .weekday], from: date)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ value: Int?) -> String {
            let value = value ?? 0
            return value < 10 ? "0\(value)" : "\(value)"
        }
        return "\(days[(parts.weekday ?? 1) - 1]), \(two(parts.day)) \(months[(parts.month ?? 1) - 1]) "
            + "\(parts.year ?? 1970) \(two(parts.hour)):\(two(parts.minute)):\(two(parts.second)) +0000"
    }
}
