import Foundation
import Testing
import WardenMail
import WardenWire

/// `--smtp-url` (SPEC §1, §6.4).
@Suite("Mail: SMTP URL")
struct MailSMTPURLTests {
    struct Case: Sendable, CustomStringConvertible {
        var text: String
        var security: SMTPURL.Security
        var host: String
        var port: Int
        var username: String? = nil
        var password: String? = nil
        var description: String { text }
    }

    @Test(arguments: [
        Case(text: "smtp://mail.example.com", security: .startTLSWhenOffered, host: "mail.example.com", port: 25),
        Case(
            text: "smtp://MAIL.Example.com:2525/", security: .startTLSWhenOffered, host: "mail.example.com", port: 2525),
        Case(
            text: "smtp://relay.example.com:587?starttls=required", security: .startTLSRequired,
            host: "relay.example.com", port: 587),
        Case(
            text: "SMTP://relay.example.com?STARTTLS=required", security: .startTLSRequired, host: "relay.example.com",
            port: 25),
        Case(text: "smtps://smtp.example.com", security: .implicitTLS, host: "smtp.example.com", port: 465),
        Case(
            text: "smtps://apikey:p%40ss%3Aw%2Frd%25@smtp.example.com:2465", security: .implicitTLS,
            host: "smtp.example.com", port: 2465, username: "apikey", password: "p@ss:w/rd%"),
        Case(
            text: "smtp://user%40example.com:pw@127.0.0.1:1025", security: .startTLSWhenOffered, host: "127.0.0.1",
            port: 1025, username: "user@example.com", password: "pw"),
        Case(text: "smtp://[::1]:2525", security: .startTLSWhenOffered, host: "::1", port: 2525),
        Case(
            text: "smtp://only-user@localhost", security: .startTLSWhenOffered, host: "localhost", port: 25,
            username: "only-user"),
        Case(
            text: "smtp://u:@localhost", security: .startTLSWhenOffered, host: "localhost", port: 25, username: "u",
            password: ""),
        Case(
            text: "smtp://j%C3%BCrgen:gr%C3%BC%C3%9Fe@localhost", security: .startTLSWhenOffered, host: "localhost",
            port: 25, username: "jürgen", password: "grüße"),
    ])
    func parses(_ expected: Case) throws {
        let url = try SMTPURL(parsing: expected.text)
        #expect(url.security == expected.security)
        #expect(url.host == expected.host)
        #expect(url.port == expected.port)
        #expect(url.username == expected.username)
        #expect(url.password == expected.password)
    }

    @Test(arguments: [
        ("http://mail.example.com", "unsupported scheme"),
        ("mail.example.com:25", "no scheme"),
        ("smtp://", "no host"),
        ("smtp://:25", "no host"),
        ("smtp://host:0", "port"),
        ("smtp://host:65536", "port"),
        ("smtp://host:abc", "port"),
        ("smtp://host:+25", "port"),
        ("smtp://host?foo=bar", "unknown query parameter"),
        ("smtp://host?starttls=maybe", "unknown query parameter"),
        ("smtps://host?starttls=required", "smtps:// always uses TLS"),
        ("smtp://host/path", "path"),
        ("smtp://host#x", "fragment"),
        ("smtp://:pw@host", "user name"),
        ("smtp://u:p%zz@host", "password has a malformed percent-escape"),
        ("smtp://u%ff:pw@host", "user name"),
        ("smtp://ho st", "not a host name"),
        ("smtp://[::1", "IPv6"),
        ("smtp://[zz]:25", "IPv6"),
    ])
    func refuses(text: String, reason: String) {
        let error = #expect(throws: SMTPURL.ParseError.self) { try SMTPURL(parsing: text) }
        #expect(error?.description.contains(reason) == true, "\(error?.description ?? "")")
        #expect(error?.description.contains("smtp://[user:password@]host:port") == true)
    }

    @Test func errorsNeverShowThePassword() {
        for text in [
            "smtp://user:hunter2secret@host:99999", "smtp://user:hunter2secret@host?x=1",
            "smtp://user:hunter2secret@host/p", "smtp://user:hunter2secret@ho st",
        ] {
            let error = #expect(throws: SMTPURL.ParseError.self) { try SMTPURL(parsing: text) }
            #expect(error?.description.contains("hunter2secret") == false)
        }
    }

    @Test func descriptionsRedactThePassword() throws {
        let url = try SMTPURL(parsing: "smtps://mailer%40example.com:hunter2secret@smtp.example.com")
        #expect(url.description == "smtps://mailer%40example.com:***@smtp.example.com:465")
        #expect("\(url)" == url.description)
        #expect(String(reflecting: url) == url.description)
        var dumped = ""
        dump(url, to: &dumped)
        #expect(!dumped.contains("hunter2secret"))
        #expect(dumped.contains("smtp.example.com"))

        let required = try SMTPURL(parsing: "smtp://[::1]:2525?starttls=required")
        #expect(required.description == "smtp://[::1]:2525?starttls=required")
        #expect(try SMTPURL(parsing: "smtp://bob@h").description == "smtp://bob@h:25")
    }

    @Test func parsesAFoundationURL() throws {
        let url = try SMTPURL(try #require(URL(string: "smtp://u:p%21@mail.example.com:587")))
        #expect(url.password == "p!")
        #expect(url.port == 587)
    }
}
