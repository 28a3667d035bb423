import Foundation
import NIOCore
import Testing
import WardenWire

@testable import WardenMail

/// The pieces of the SMTP client that need no server: dot-stuffing, reply parsing, EHLO names.
@Suite("Mail: SMTP protocol")
struct MailSMTPProtocolTests {
    @Test(arguments: [
        ("Subject: x\r\n\r\nbody\r\n", "Subject: x\r\n\r\nbody\r\n.\r\n"),
        (".starts with a dot\r\n", "..starts with a dot\r\n.\r\n"),
        ("a\r\n.\r\nb\r\n", "a\r\n..\r\nb\r\n.\r\n"),
        ("a\r\n..two\r\n", "a\r\n...two\r\n.\r\n"),
        ("middle . dot\r\n", "middle . dot\r\n.\r\n"),
        ("no final line break", "no final line break\r\n.\r\n"),
        ("bare\nLF\n.x", "bare\r\nLF\r\n..x\r\n.\r\n"),
        ("", ".\r\n"),
    ])
    func dotStuffing(message: String, data: String) {
        #expect(SMTPMailTransport.dataSection(message) == data)
    }

    @Test func dotStuffingOfARenderedMessage() throws {
        let message = MailMessage(
            from: try MailAddress("a@warden.test"), to: [try MailAddress("b@example.com")], subject: "s",
            text: ".\n.hidden\nvisible\n", html: nil)
        let data = SMTPMailTransport.dataSection(message.rendered(date: .init(), messageID: "x@y"))
        #expect(data.hasSuffix("\r\n\r\n..\r\n..hidden\r\nvisible\r\n.\r\n"))
        // Undoing the stuffing (RFC 5321 §4.5.2, receiver side) gives the message back.
        let lines = data.components(separatedBy: "\r\n").dropLast(2).map {
            $0.hasPrefix(".") ? String($0.dropFirst()) : $0
        }
        #expect(try ParsedMail(lines.joined(separator: "\r\n") + "\r\n").decodedBody == ".\r\n.hidden\r\nvisible\r\n")
    }

    @Test func multiLineRepliesAreGathered() throws {
        var assembler = SMTPReply.Assembler()
        #expect(try assembler.append("250-smtp.example.com greets you") == nil)
        #expect(!assembler.isEmpty)
        #expect(try assembler.append("250-SIZE 35882577") == nil)
        #expect(try assembler.append("250-STARTTLS") == nil)
        #expect(try assembler.append("250-AUTH=LOGIN") == nil)
        #expect(try assembler.append("250-auth plain login") == nil)
        let reply = try #require(try assembler.append("250 8BITMIME"))
        #expect(assembler.isEmpty)
        #expect(reply.code == 250)
        #expect(reply.lines.count == 6)
        #expect(reply.extensionParameters("STARTTLS") == [])
        #expect(reply.extensionParameters("AUTH") == ["LOGIN", "PLAIN", "LOGIN"])
        #expect(reply.extensionParameters("SIZE") == ["35882577"])
        #expect(reply.extensionParameters("PIPELINING") == nil)
        // The first line is the greeting, not an extension.
        #expect(reply.extensionParameters("SMTP.EXAMPLE.COM") == nil)

        let single = try #require(try assembler.append("221"))
        #expect(single.code == 221 && single.lines == [""])
        #expect(
            try assembler.append("535 5.7.8 Authentication credentials invalid")?.text
                == "5.7.8 Authentication credentials invalid")
    }

    @Test(arguments: ["25", "hello", "2500 x", "600 nope", "1x0 x", "250_x", ""])
    func malformedReplyLines(line: String) {
        var assembler = SMTPReply.Assembler()
        #expect(throws: SMTPReply.MalformedReply.self) { try assembler.append(line) }
    }

    @Test func aCodeChangeInsideAMultiLineReplyIsAnError() throws {
        var assembler = SMTPReply.Assembler()
        _ = try assembler.append("250-first")
        #expect(throws: SMTPReply.MalformedReply.self) { try assembler.append("354 second") }
    }

    @Test(arguments: [
        ("warden.example.com", "warden.example.com"),
        ("localhost", "localhost"),
        ("192.0.2.1", "[192.0.2.1]"),
        ("2001:db8::1", "[IPv6:2001:db8::1]"),
    ])
    func heloNames(name: String, argument: String) throws {
        #expect(try SMTPMailTransport.heloArgument(name) == argument)
    }

    @Test(arguments: ["", "bad name", "host\r\nMAIL FROM:<x@y>", "ünicode.example"])
    func badHeloNamesAreRefused(name: String) {
        #expect(throws: SMTPError.self) { try SMTPMailTransport.heloArgument(name) }
    }

    @Test func loopbackAddresses() throws {
        #expect(SMTPSession.isLoopback(try SocketAddress(ipAddress: "127.0.0.1", port: 25)))
        #expect(SMTPSession.isLoopback(try SocketAddress(ipAddress: "127.8.9.10", port: 25)))
        #expect(SMTPSession.isLoopback(try SocketAddress(ipAddress: "::1", port: 25)))
        #expect(!SMTPSession.isLoopback(try SocketAddress(ipAddress: "10.0.0.1", port: 25)))
        #expect(!SMTPSession.isLoopback(try SocketAddress(ipAddress: "2001:db8::1", port: 25)))
        #expect(!SMTPSession.isLoopback(nil))
    }

    @Test func errorsNameTheStepAndCode() {
        let error = SMTPError(step: .auth, code: 535, message: "5.7.8 Authentication credentials invalid")
        #expect(error.description == "SMTP AUTH failed: 535 5.7.8 Authentication credentials invalid")
        #expect(error.isPermanent)
        #expect(!SMTPError(step: .rcptTo, code: 451, message: "try later").isPermanent)
        #expect(!SMTPError(step: .connect, code: nil, message: "refused").isPermanent)
        #expect(error == SMTPError(step: .auth, code: 535, message: "other text"))
    }
}
