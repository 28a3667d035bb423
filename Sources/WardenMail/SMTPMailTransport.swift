import Foundation
public import NIOCore
import NIOPosix
public import NIOSSL

/// Hands each message to an SMTP server (RFC 5321), one connection per message, over SwiftNIO.
///
/// The dialogue (RFC 5321 §3.3, D.1):
///
/// 1. Connect; with `smtps://` TLS starts at once (RFC 8314 §3.3). Wait for the `220` greeting (§4.3.1).
/// 2. `EHLO heloName` (§4.1.1.1); a server that answers `5yz` gets `HELO` instead (§3.2).
/// 3. STARTTLS (RFC 3207 §4) when the EHLO reply offers it; with `?starttls=required` its absence is an error.
///    The TLS handler goes to the front of the pipeline, verifying the certificate against the host name (or
///    IP address) of the URL (§4.1); then everything learnt before is forgotten and `EHLO` is sent again
///    (§4.2). A failed handshake fails the message: never a silent fall-back to plain text.
/// 4. With a user in the URL, `AUTH PLAIN` with an initial response (RFC 4954 §4, RFC 4616) when offered,
///    else `AUTH LOGIN`. Credentials are only sent over TLS, or in plain text to a loopback address
///    (127.0.0.0/8, ::1: a local relay or a test server); otherwise the message fails before anything is sent.
/// 5. `MAIL FROM:<from>` (§4.1.1.2), `RCPT TO:<to>` for every recipient (§4.1.1.3; `250` or `251`, any refusal
///    fails the message), `DATA` and `354` (§4.1.1.4).
/// 6. The message (RFC 5322, 7-bit, CRLF) with dot-stuffing: a line starting with `.` gets another one
///    (§4.5.2), then `CRLF.CRLF`; `250` means the server has taken it (§4.1.1.4). Then `QUIT` (§4.1.1.10).
///
/// Every step waits at most `timeout` for its reply (§4.5.3.2; one value for all steps, the connection
/// included) and fails with an ``SMTPError`` naming the step, the server's code and text. After a negative
/// reply, `QUIT` is sent before the connection closes.
public struct SMTPMailTransport: MailTransport {
    public let url: SMTPURL
    /// The name given in `EHLO`/`HELO` (the issuer's host name); an IP address is sent as an address
    /// literal (`[192.0.2.1]`, `[IPv6:2001:db8::1]`, RFC 5321 §4.1.3).
    public let heloName: String
    public let timeout: TimeAmount
    private let tlsContext: NIOSSLContext
    private let eventLoopGroup: any EventLoopGroup

    /// - Parameters:
    ///   - url: the server, credentials and TLS mode.
    ///   - heloName: the client's host name for `EHLO`.
    ///   - tlsConfiguration: the TLS client settings; by default `TLSConfiguration.makeClientConfiguration()`
    ///     (system trust roots, full certificate and host name verification).
    ///   - additionalTrustRootsPEMFile: a PEM file of extra trusted certificates (a private CA, a test server's
    ///     self-signed certificate), added to `tlsConfiguration`'s roots.
    ///   - timeout: the longest wait for the connection and for each reply.
    ///   - eventLoopGroup: by default `MultiThreadedEventLoopGroup.singleton`.
    /// - Throws: when the TLS settings or the trust-root file cannot be loaded, or `heloName` is not a host name.
    public init(
        url: SMTPURL, heloName: String, tlsConfiguration: TLSConfiguration? = nil,
        additionalTrustRootsPEMFile: String? = nil, timeout: TimeAmount = .seconds(30),
        eventLoopGroup: (any EventLoopGroup)? = nil
    ) throws {
        var configuration = tlsConfiguration ?? TLSConfiguration.makeClientConfiguration()
        if let additionalTrustRootsPEMFile {
            configuration.additionalTrustRoots.append(.file(additionalTrustRootsPEMFile))
        }
        self.url = url
        self.heloName = try Self.heloArgument(heloName)
        self.timeout = timeout
        self.tlsContext = try NIOSSLContext(configuration: configuration)
        self.eventLoopGroup = eventLoopGroup ?? MultiThreadedEventLoopGroup.singleton
    }

    public func send(_ message: MailMessage) async throws {
        guard !message.to.isEmpty else {
            throw SMTPError(step: .rcptTo, code: nil, message: "the message has no recipient")
        }
        let rendered = message.rendered(date: Date(), messageID: MailMessage.makeMessageID(domain: message.from.domain))
        let data = ByteBuffer(string: Self.dataSection(rendered))
        let implicitTLS = url.security == .implicitTLS
        let (channel, handshake) = try await connect(implicitTLS: implicitTLS)
        try await channel.executeThenClose { inbound, outbound in
            let session = SMTPSession(channel: channel, inbound: inbound, outbound: outbound, timeout: timeout)
            if let handshake { try await session.completeHandshake(handshake) }
            do {
                try await converse(session, message, data: data, tlsActive: implicitTLS)
            } catch let error as SMTPError where error.code != nil {
                await session.quit()
                throw error
            }
        }
    }

    /// The rendered message as the content of `DATA` (RFC 5321 §4.5.2, §4.1.1.4): line breaks made CRLF, a `.`
    /// added before every line that starts with one, a final CRLF when missing, then the `.` line.
    static func dataSection(_ message: String) -> String {
        var output = ""
        output.reserveCapacity(message.utf8.count + 64)
        var atLineStart = true
        for scalar in message.unicodeScalars {
            switch scalar {
            case "\r":
                continue
            case "\n":
                output += "\r\n"
                atLineStart = true
            default:
                if atLineStart && scalar == "." { output += "." }
                output.unicodeScalars.append(scalar)
                atLineStart = false
            }
        }
        if !atLineStart { output += "\r\n" }
        return output + ".\r\n"
    }

    /// The name sent in `EHLO`: a host name as is, an IP address as an address literal (RFC 5321 §4.1.3).
    static func heloArgument(_ name: String) throws -> String {
        if (try? SocketAddress(ipAddress: name, port: 0))?.protocol == .inet { return "[\(name)]" }
        if (try? SocketAddress(ipAddress: name, port: 0))?.protocol == .inet6 { return "[IPv6:\(name)]" }
        guard !name.isEmpty, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-.".contains($0)) })
        else {
            throw SMTPError(step: .ehlo, code: nil, message: "'\(name.prefix(64))' is not a host name for EHLO")
        }
        return name
    }

    /// Opens the connection: TCP, TLS first for `smtps://` (its handshake future returned), the reply decoder,
    /// wrapped as an `NIOAsyncChannel`.
    private func connect(implicitTLS: Bool) async throws -> (
        NIOAsyncChannel<SMTPReply, ByteBuffer>, EventLoopFuture<Void>?
    ) {
        let tlsContext = tlsContext
        let serverHostname = sniHostname
        do {
            return try await ClientBootstrap(group: eventLoopGroup)
                .connectTimeout(timeout)
                .connect(host: url.host, port: url.port) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        let pipeline = channel.pipeline.syncOperations
                        var handshake: EventLoopFuture<Void>?
                        if implicitTLS {
                            try pipeline.addHandler(
                                NIOSSLClientHandler(context: tlsContext, serverHostname: serverHostname))
                            let watcher = TLSHandshakeWatcher(eventLoop: channel.eventLoop)
                            try pipeline.addHandler(watcher)
                            handshake = watcher.handshakeResult
                        }
                        try pipeline.addHandler(SMTPReplyDecoder())
                        let asyncChannel = try NIOAsyncChannel<SMTPReply, ByteBuffer>(
                            wrappingChannelSynchronously: channel)
                        return (asyncChannel, handshake)
                    }
                }
        } catch {
            throw SMTPError(step: .connect, code: nil, message: "\(url.host) port \(url.port): \(error)")
        }
    }

    /// The host name for SNI and certificate checks; `nil` for an IP address (SNI carries names only, RFC 6066
    /// §3), which NIOSSL then checks against the certificate's IP address entries.
    private var sniHostname: String? {
        (try? SocketAddress(ipAddress: url.host, port: 0)) == nil ? url.host : nil
    }

    /// Steps 1 (greeting) to 6 of the type's documentation.
    private func converse(_ session: SMTPSession, _ message: MailMessage, data: ByteBuffer, tlsActive: Bool)
        async throws
    {
        var tlsActive = tlsActive
        try await session.expectReply(.greeting, [220])
        var capabilities = try await hello(session)
        if !tlsActive {
            if capabilities.extensionParameters("STARTTLS") != nil {
                try await session.command("STARTTLS", .startTLS, expect: [220])
                try await session.startTLS(context: tlsContext, serverHostname: sniHostname)
                tlsActive = true
                capabilities = try await session.command("EHLO \(heloName)", .ehlo, expect: [250])
            } else if url.security == .startTLSRequired {
                throw SMTPError(
                    step: .startTLS, code: nil,
                    message: "the server does not offer STARTTLS, and the URL says ?starttls=required")
            }
        }
        if let username = url.username {
            try await authenticate(
                session, username: username, password: url.password ?? "", capabilities: capabilities,
                tlsActive: tlsActive)
        }
        try await session.command("MAIL FROM:<\(message.from.address)>", .mailFrom, expect: [250])
        for recipient in message.to {
            try await session.command("RCPT TO:<\(recipient.address)>", .rcptTo, expect: [250, 251])
        }
        try await session.command("DATA", .data, expect: [354])
        try await session.send(data, .endOfData, expect: [250])
        await session.quit()
    }

    /// `EHLO`, or `HELO` when the server refuses `EHLO` with `5yz` (then it has no extensions).
    private func hello(_ session: SMTPSession) async throws -> SMTPReply {
        do {
            return try await session.command("EHLO \(heloName)", .ehlo, expect: [250])
        } catch let error as SMTPError where error.step == .ehlo && error.isPermanent {
            return try await session.command("HELO \(heloName)", .helo, expect: [250])
        }
    }

    /// SASL PLAIN or LOGIN (RFC 4954 §4, RFC 4616 §2); `235` means success (RFC 4954 §6).
    private func authenticate(
        _ session: SMTPSession, username: String, password: String, capabilities: SMTPReply, tlsActive: Bool
    ) async throws {
        guard tlsActive || session.peerIsLoopback else {
            throw SMTPError(
                step: .auth, code: nil,
                message: "refusing to send the password in plain text to \(url.host), which is not a loopback "
                    + "address: use smtps://, or a server that offers STARTTLS")
        }
        let mechanisms = capabilities.extensionParameters("AUTH") ?? []
        func base64(_ text: String) -> String { Data(text.utf8).base64EncodedString() }
        if mechanisms.contains("PLAIN") {
            try await session.command("AUTH PLAIN " + base64("\0\(username)\0\(password)"), .auth, expect: [235])
        } else if mechanisms.contains("LOGIN") {
            try await session.command("AUTH LOGIN", .auth, expect: [334])
            try await session.command(base64(username), .auth, expect: [334])
            try await session.command(base64(password), .auth, expect: [235])
        } else {
            throw SMTPError(
                step: .auth, code: nil,
                message: mechanisms.isEmpty
                    ? "the URL has credentials, but the server does not offer AUTH"
                    : "the server offers AUTH \(mechanisms.joined(separator: " ")), but neither PLAIN nor LOGIN")
        }
    }
}
