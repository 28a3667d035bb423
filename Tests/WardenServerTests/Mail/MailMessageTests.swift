import Foundation
import Testing
import WardenWire

@testable import WardenMail

/// RFC 5322 / MIME rendering of ``MailMessage`` (RFC 2045, 2046, 2047).
@Suite("Mail: message rendering")
struct MailMessageTests {
    /// 2026-02-13 09:30:00 UTC, a Friday.
    static let date = Date(timeIntervalSince1970: 1_770_975_000)

    static func message(
        subject: String = "Approve the transfer", text: String = "Hello\n.dot line\n", html: String? = "<p>Hello</p>"
    ) throws -> MailMessage {
        MailMessage(
            from: try MailAddress("no-reply@warden.test", displayName: "Warden"),
            to: [try MailAddress("alice@example.com")], subject: subject, text: text, html: html,
            headers: [
                .init("Auto-Submitted", "auto-generated"), .init("Subject", "ignored"), .init("Bad\r\nName", "x"),
            ])
    }

    @Test func headerFieldsComeFirstAndInOrder() throws {
        let rendered = try Self.message().rendered(date: Self.date, messageID: "abc@warden.test", boundary: "=_b")
        let mail = try ParsedMail(rendered)
        #expect(mail.headers.map(\.name).prefix(6) == ["Date", "From", "To", "Subject", "Message-ID", "MIME-Version"])
        #expect(mail.header("Date") == "Fri, 13 Feb 2026 09:30:00 +0000")
        #expect(mail.header("From") == "Warden <no-reply@warden.test>")
        #expect(mail.header("To") == "alice@example.com")
        #expect(mail.header("Subject") == "Approve the transfer")
        #expect(mail.header("Message-ID") == "<abc@warden.test>")
        #expect(mail.header("MIME-Version") == "1.0")
        #expect(mail.header("Auto-Submitted") == "auto-generated")
        // Reserved names cannot be set twice; an invalid name loses its bad characters.
        #expect(mail.headers.filter { $0.name == "Subject" }.count == 1)
        #expect(mail.header("BadName") == "x")
    }

    @Test func multipartAlternativeWithTwoQuotedPrintableParts() throws {
        let text = "Hello Ålice,\n\n.a line with a dot\nprice = 5 €   \n"
        let html = "<p>Hello Ålice, <a href=\"https://warden.test/u/ciba/x\">approve</a></p>"
        let rendered = try Self.message(text: text, html: html).rendered(date: Self.date, messageID: "<m@w>")
        let mail = try ParsedMail(rendered)
        let boundary = try #require(mail.boundary)
        #expect(boundary.hasPrefix("=_warden_") && boundary.count == "=_warden_".count + 24)
        #expect(mail.header("Content-Type") == "multipart/alternative; boundary=\"\(boundary)\"")
        let parts = try mail.parts()
        try #require(parts.count == 2)
        #expect(parts[0].header("Content-Type") == "text/plain; charset=UTF-8")
        #expect(parts[1].header("Content-Type") == "text/html; charset=UTF-8")
        for part in parts {
            #expect(part.header("Content-Transfer-Encoding") == "quoted-printable")
        }
        #expect(parts[0].decodedBody == text.replacingOccurrences(of: "\n", with: "\r\n"))
        #expect(parts[1].decodedBody == html)
        #expect(rendered.hasSuffix("\r\n--\(boundary)--\r\n"))
    }

    @Test func boundariesDifferBetweenRenderings() throws {
        let message = try Self.message()
        let first = try ParsedMail(message.rendered(date: Self.date, messageID: "a@b")).boundary
        let second = try ParsedMail(message.rendered(date: Self.date, messageID: "a@b")).boundary
        #expect(first != nil && first != second)
    }

    @Test func withoutHTMLTheBodyIsASingleTextPart() throws {
        let rendered = try Self.message(text: "just text", html: nil).rendered(date: Self.date, messageID: "a@b")
        let mail = try ParsedMail(rendered)
        #expect(mail.header("Content-Type") == "text/plain; charset=UTF-8")
        #expect(mail.header("Content-Transfer-Encoding") == "quoted-printable")
        #expect(mail.body == "just text\r\n")
    }

    @Test func everyLineEndsWithCRLFAndIsSevenBit() throws {
        let rendered = try Self.message(
            subject: "Überweisung über 100 € bestätigen – " + String(repeating: "sehr lang ", count: 12),
            text: String(repeating: "Grüße ", count: 100) + "\n\n\r\nend", html: "<b>ü</b>\r\n"
        ).rendered(date: Self.date, messageID: "a@b")
        let bytes = Array(rendered.utf8)
        for (index, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") {
            #expect(index > 0 && bytes[index - 1] == UInt8(ascii: "\r"), "bare LF at \(index)")
        }
        for (index, byte) in bytes.enumerated() where byte == UInt8(ascii: "\r") {
            #expect(index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "\n"), "bare CR at \(index)")
        }
        #expect(bytes.allSatisfy { $0 < 128 })
        for line in rendered.components(separatedBy: "\r\n") {
            #expect(line.count <= 78, "long line: \(line)")
        }
    }

    @Test(arguments: [
        "Grüße aus Köln",
        "Überweisung über 100 € bestätigen – bitte prüfen Sie die Details und entscheiden Sie schnell",
        String(repeating: "😀👩‍👩‍👧‍👦", count: 20),
        "日本語の件名",
        "ASCII but with =?UTF-8?B?looks encoded?= text",
    ])
    func nonASCIISubjectsBecomeEncodedWords(subject: String) throws {
        let rendered = try Self.message(subject: subject).rendered(date: Self.date, messageID: "a@b")
        let header = try #require(rendered.components(separatedBy: "\r\n\r\n").first)
        let subjectLines = header.components(separatedBy: "\r\n").drop { !$0.hasPrefix("Subject: ") }
            .prefix { $0.hasPrefix("Subject: ") || $0.hasPrefix(" ") }
        for line in subjectLines {
            #expect(line.count <= 76, "RFC 2047 §2: \(line)")
            let word = line.hasPrefix("Subject: ") ? String(line.dropFirst(9)) : String(line.dropFirst())
            #expect(word.hasPrefix("=?UTF-8?B?") && word.hasSuffix("?=") && word.count <= 75)
        }
        #expect(try ParsedMail(rendered).decodedHeader("Subject") == subject)
    }

    @Test func longASCIISubjectsAreFoldedAndUnfoldBack() throws {
        let subject = (1...30).map { "word\($0)" }.joined(separator: " ")
        let rendered = try Self.message(subject: subject).rendered(date: Self.date, messageID: "a@b")
        #expect(!rendered.contains("=?UTF-8?"))
        #expect(rendered.contains("\r\n word"))
        #expect(try ParsedMail(rendered).header("Subject") == subject)
    }

    @Test func lineBreaksInTheSubjectCannotAddHeaderFields() throws {
        let rendered = try Self.message(subject: "Hi\r\nBcc: victim@example.com\nX: y").rendered(
            date: Self.date, messageID: "a@b\r\nX-Injected: 1")
        let mail = try ParsedMail(rendered)
        #expect(mail.header("Bcc") == nil)
        #expect(mail.header("X") == nil)
        #expect(mail.header("X-Injected") == nil)
        #expect(mail.header("Subject") == "Hi  Bcc: victim@example.com X: y")
    }

    @Test func displayNamesAreQuotedOrEncoded() throws {
        var message = try Self.message()
        message.from = try MailAddress("no-reply@warden.test", displayName: "Wärden Bank")
        message.to = [
            try MailAddress("a@example.com", displayName: "Doe, \"Johnny\""),
            try MailAddress("b@example.com", displayName: "Plain Name"),
        ]
        let mail = try ParsedMail(message.rendered(date: Self.date, messageID: "a@b"))
        #expect(try mail.decodedHeader("From") == "Wärden Bank <no-reply@warden.test>")
        #expect(mail.header("From")?.hasPrefix("=?UTF-8?B?") == true)
        #expect(mail.header("To") == #""Doe, \"Johnny\"" <a@example.com>, Plain Name <b@example.com>"#)
    }

    @Test func messageIDsAreUniqueAndBracketed() {
        let first = MailMessage.makeMessageID(domain: "warden.test")
        let second = MailMessage.makeMessageID(domain: "warden.test")
        #expect(first != second)
        #expect(first.hasPrefix("<") && first.hasSuffix("@warden.test>"))
    }

    @Test(
        arguments: [
            ("alice@example.com", "alice@example.com", nil),
            ("<alice@example.com>", "alice@example.com", nil),
            ("Warden <no-reply@warden.test>", "no-reply@warden.test", "Warden"),
            ("\"Doe, John\" <j.doe+tag@mail.example.com>", "j.doe+tag@mail.example.com", "Doe, John"),
            ("  spaced@example.com  ", "spaced@example.com", nil),
            ("ops@[192.0.2.1]", "ops@[192.0.2.1]", nil),
        ] as [(String, String, String?)])
    func addressesParse(text: String, address: String, displayName: String?) throws {
        let parsed = try MailAddress(parsing: text)
        #expect(parsed.address == address)
        #expect(parsed.displayName == displayName)
    }

    @Test(arguments: [
        "", "no-at-sign", "@example.com", "alice@", "a b@example.com", "alice@exa mple.com",
        "alice@example.com>\r\nRCPT TO:<evil@example.com", "alice@example.com\r\n", "ålice@example.com",
        "alice@-example.com", "a..b@example.com", ".a@example.com", "a@example..com", "<a@b>",
    ])
    func invalidAddressesAreRefused(text: String) {
        // Straight into SMTP commands and header fields: nothing may be smuggled in.
        #expect(throws: MailAddress.InvalidAddress.self) { try MailAddress(text) }
    }

    @Test func parsingRefusesAnUnclosedAngleAddress() {
        #expect(throws: MailAddress.InvalidAddress.self) { try MailAddress(parsing: "Name <a@b") }
    }
}
