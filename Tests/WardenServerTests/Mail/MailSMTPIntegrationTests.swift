import Foundation
import NIOCore
import Testing
import WardenMail
import WardenWire

/// ``SMTPMailTransport`` against a real SMTP server: `scripts/test-support/smtp-sink.py` (aiosmtpd), started by each test on
/// a free port. Needs python3 with aiosmtpd and openssl; when they are missing the tests fail, saying so. One test at
/// a time: beside the whole suite on two cores, a dozen Python servers starting at once were seen to answer after
/// the client's 30 s.
@Suite("Mail: SMTP delivery", .serialized)
struct MailSMTPIntegrationTests {
    static let subject = "Überweisung bestätigen: 100 € an Bob"
    static let text = "Hello Alice,\n\n.this line starts with a dot\n..and this one with two\n.\nPrice = 100 €  \n"
    static let html = "<p>Hello <b>Alice</b></p>\n.<p>approve</p>"
    static let password = "s3cret:pw@!"

    static func message() throws -> MailMessage {
        MailMessage(
            from: try MailAddress("no-reply@warden.test", displayName: "Warden"),
            to: [try MailAddress("alice@example.com"), try MailAddress("audit@example.com", displayName: "Audit")],
            subject: subject, text: text, html: html, headers: [.init("Auto-Submitted", "auto-generated")])
    }

    /// A transport to the sink; 30 s a step, since the Python sink answers slowly on a loaded two-core machine (a
    /// step cut by a 10 s timeout surfaced as "I/O on closed channel" at the next one).
    static func transport(
        _ url: String, trust certificate: String? = nil, timeout: TimeAmount = .seconds(30)
    ) throws -> SMTPMailTransport {
        try SMTPMailTransport(
            url: SMTPURL(parsing: url), heloName: "warden.test", additionalTrustRootsPEMFile: certificate,
            timeout: timeout)
    }

    /// The sink received exactly one message, intact: envelope, TLS, authentication, subject, both parts.
    @discardableResult
    static func checkDelivered(_ sink: SMTPSink, tls: Bool, authUser: String?) throws -> ParsedMail {
        let messages = try sink.messages()
        try #require(messages.count == 1, "expected one delivered message, found \(messages.count)")
        let mail = try ParsedMail(messages[0])
        #expect(mail.header("X-Sink-Mail-From") == "no-reply@warden.test")
        #expect(
            mail.headers.filter { $0.name == "X-Sink-Rcpt-To" }.map(\.value) == [
                "alice@example.com", "audit@example.com",
            ])
        let tlsVersion = try #require(mail.header("X-Sink-TLS"))
        #expect(tls ? tlsVersion.hasPrefix("TLSv1.") : tlsVersion == "none", "X-Sink-TLS: \(tlsVersion)")
        #expect(mail.header("X-Sink-Auth-User") == authUser)
        #expect(try mail.decodedHeader("Subject") == subject)
        #expect(try mail.decodedHeader("To") == "alice@example.com, Audit <audit@example.com>")
        #expect(mail.header("Auto-Submitted") == "auto-generated")
        let parts = try mail.parts()
        try #require(parts.count == 2)
        #expect(parts[0].decodedBody == text.replacingOccurrences(of: "\n", with: "\r\n"))
        #expect(parts[1].decodedBody == html.replacingOccurrences(of: "\n", with: "\r\n"))
        return mail
    }

    static func withDirectory<Result>(_ body: (URL) async throws -> Result) async throws -> Result {
        let directory = try ExternalTools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        return try await body(directory)
    }

    @Test func plainTextWithoutTLSOrAuthentication() async throws {
        try await Self.withDirectory { directory in
            try await SMTPSink.with(in: directory) { sink in
                try await Self.transport("smtp://127.0.0.1:\(sink.port)").send(Self.message())
                try Self.checkDelivered(sink, tls: false, authUser: nil)
            }
        }
    }

    @Test func startTLSWhenOfferedWithASelfSignedCertificate() async throws {
        try await Self.withDirectory { directory in
            let (certificate, key) = try await ExternalTools.selfSignedCertificate(in: directory)
            try await SMTPSink.with(["--tls-cert", certificate, "--tls-key", key], in: directory) { sink in
                // "localhost": SNI and verification against the certificate's DNS name.
                try await Self.transport("smtp://localhost:\(sink.port)", trust: certificate).send(Self.message())
                try Self.checkDelivered(sink, tls: true, authUser: nil)
            }
        }
    }

    @Test func startTLSRequiredThenAuthenticationOverTLS() async throws {
        try await Self.withDirectory { directory in
            let (certificate, key) = try await ExternalTools.selfSignedCertificate(in: directory)
            let arguments = [
                "--tls-cert", certificate, "--tls-key", key, "--require-starttls", "--auth-user", "mailer",
                "--auth-password", Self.password,
            ]
            try await SMTPSink.with(arguments, in: directory) { sink in
                // The sink offers AUTH only after STARTTLS: this works only if EHLO is sent again (RFC 3207 §4.2).
                let url = "smtp://mailer:s3cret%3Apw%40%21@localhost:\(sink.port)?starttls=required"
                try await Self.transport(url, trust: certificate).send(Self.message())
                try Self.checkDelivered(sink, tls: true, authUser: "mailer")
            }
        }
    }

    @Test func anUntrustedCertificateFailsTheHandshakeAndNothingIsSentInPlainText() async throws {
        try await Self.withDirectory { directory in
            let (certificate, key) = try await ExternalTools.selfSignedCertificate(in: directory)
            try await SMTPSink.with(["--tls-cert", certificate, "--tls-key", key], in: directory) { sink in
                let error = await #expect(throws: SMTPError.self) {
                    try await Self.transport("smtp://localhost:\(sink.port)").send(Self.message())
                }
                #expect(error?.step == .tlsHandshake)
                #expect(error?.code == nil)
                let delivered = try sink.messages()
                #expect(delivered.isEmpty)
            }
        }
    }

    @Test(arguments: ["PLAIN", "LOGIN"])
    func authenticationWithTheRightCredentials(mechanism: String) async throws {
        try await Self.withDirectory { directory in
            let arguments = ["--auth-user", "mailer", "--auth-password", Self.password, "--auth-mechanisms", mechanism]
            try await SMTPSink.with(arguments, in: directory) { sink in
                // Plain text is allowed here only because 127.0.0.1 is a loopback address.
                let url = "smtp://mailer:s3cret%3Apw%40%21@127.0.0.1:\(sink.port)"
                try await Self.transport(url).send(Self.message())
                try Self.checkDelivered(sink, tls: false, authUser: "mailer")
            }
        }
    }

    @Test(arguments: ["PLAIN", "LOGIN"])
    func authenticationWithWrongCredentialsFailsWith535(mechanism: String) async throws {
        try await Self.withDirectory { directory in
            let arguments = ["--auth-user", "mailer", "--auth-password", Self.password, "--auth-mechanisms", mechanism]
            try await SMTPSink.with(arguments, in: directory) { sink in
                let url = "smtp://mailer:wrong-password-42@127.0.0.1:\(sink.port)"
                let error = await #expect(throws: SMTPError.self) { try await Self.transport(url).send(Self.message()) }
                #expect(error?.step == .auth)
                #expect(error?.code == 535)
                #expect(error?.isPermanent == true)
                #expect(error?.description.contains("535") == true)
                #expect(error?.description.contains("wrong-password-42") == false)
                let delivered = try sink.messages()
                #expect(delivered.isEmpty)
            }
        }
    }

    @Test func startTLSRequiredAgainstAServerWithoutIt() async throws {
        try await Self.withDirectory { directory in
            try await SMTPSink.with(in: directory) { sink in
                let error = await #expect(throws: SMTPError.self) {
                    try await Self.transport("smtp://127.0.0.1:\(sink.port)?starttls=required").send(Self.message())
                }
                #expect(error?.step == .startTLS)
                #expect(error?.code == nil)
                #expect(error?.message.contains("does not offer STARTTLS") == true)
                let delivered = try sink.messages()
                #expect(delivered.isEmpty)
            }
        }
    }

    @Test func smtpsUsesTLSFromTheFirstByte() async throws {
        try await Self.withDirectory { directory in
            let (certificate, key) = try await ExternalTools.selfSignedCertificate(in: directory)
            let arguments = [
                "--tls-cert", certificate, "--tls-key", key, "--implicit-tls", "--auth-user", "mailer",
                "--auth-password", Self.password,
            ]
            try await SMTPSink.with(arguments, in: directory) { sink in
                // An IP address: no SNI, verified against the certificate's IP address entry.
                let url = "smtps://mailer:s3cret%3Apw%40%21@127.0.0.1:\(sink.port)"
                try await Self.transport(url, trust: certificate).send(Self.message())
                try Self.checkDelivered(sink, tls: true, authUser: "mailer")
            }
        }
    }

    @Test func aServerThatNeverRepliesTimesOut() async throws {
        let silent = """
            import signal, socket, time
            signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGTERM])
            s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen()
            print("ready", s.getsockname()[1], flush=True)
            c, _ = s.accept(); time.sleep(60)
            """
        try await Self.withDirectory { directory in
            try await SMTPSink.withPython(["-c", silent], in: directory) { server in
                let started = ContinuousClock.now
                let error = await #expect(throws: SMTPError.self) {
                    try await Self.transport("smtp://127.0.0.1:\(server.port)", timeout: .milliseconds(300))
                        .send(Self.message())
                }
                #expect(error?.step == .greeting)
                #expect(error?.message.contains("timed out") == true)
                // Under the default 30 s: the 300 ms applied. Not tighter: on a loaded 2-core machine, with every
                // test of the suite running at once, the waiting task was seen to resume 15 s after its timer fired.
                #expect(ContinuousClock.now - started < .seconds(25))
            }
        }
    }

    @Test func aRefusedConnectionIsAConnectError() async throws {
        try await ClosedPort.with { port in
            let error = await #expect(throws: SMTPError.self) {
                try await Self.transport("smtp://127.0.0.1:\(port)").send(Self.message())
            }
            #expect(error?.step == .connect)
        }
    }

    /// A scripted server for what aiosmtpd will not do: refuse EHLO, or send more than its STARTTLS reply.
    static let scriptedServer = """
        import signal, socket, sys
        signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGTERM])
        mode, out = sys.argv[1], sys.argv[2]
        s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen()
        print("ready", s.getsockname()[1], flush=True)
        c, _ = s.accept(); f = c.makefile("rb")
        send = lambda text: c.sendall(text.encode() + b"\\r\\n")
        send("220 scripted ESMTP")
        while True:
            line = f.readline()
            if not line: break
            command = line.decode().strip().upper()
            if command.startswith("EHLO"):
                send("502 5.5.2 Error: command not recognized" if mode == "helo-only" else "250-scripted\\r\\n250 STARTTLS")
            elif command.startswith("HELO"): send("250 scripted")
            elif command == "STARTTLS": c.sendall(b"220 go ahead\\r\\n250 injected before TLS\\r\\n")
            elif command.startswith("MAIL") or command.startswith("RCPT"): send("250 ok")
            elif command == "DATA":
                send("354 go ahead")
                data = b""
                while not data.endswith(b"\\r\\n.\\r\\n"):
                    chunk = f.readline()
                    if not chunk: break
                    data += chunk
                open(out, "wb").write(data)
                send("250 queued")
            elif command == "QUIT":
                send("221 bye"); break
            else: send("500 unknown")
        """

    @Test func aServerThatRefusesEHLOGetsHELO() async throws {
        try await Self.withDirectory { directory in
            let out = directory.appendingPathComponent("data.txt")
            try await SMTPSink.withPython(["-c", Self.scriptedServer, "helo-only", out.path], in: directory) { server in
                try await Self.transport("smtp://127.0.0.1:\(server.port)").send(Self.message())
            }
            // What went over the wire is still dot-stuffed.
            let data = try String(contentsOf: out, encoding: .utf8)
            #expect(data.contains("\r\n...and this one with two\r\n..\r\n"))
            #expect(data.hasSuffix("\r\n.\r\n"))
        }
    }

    @Test func dataInjectedBeforeTheTLSHandshakeIsRefused() async throws {
        try await Self.withDirectory { directory in
            let out = directory.appendingPathComponent("data.txt")
            try await SMTPSink.withPython(["-c", Self.scriptedServer, "starttls", out.path], in: directory) { server in
                let error = await #expect(throws: SMTPError.self) {
                    try await Self.transport("smtp://127.0.0.1:\(server.port)").send(Self.message())
                }
                #expect(error?.step == .startTLS)
                #expect(error?.message.contains("before the TLS handshake") == true)
            }
            #expect(!FileManager.default.fileExists(atPath: out.path))
        }
    }
}
