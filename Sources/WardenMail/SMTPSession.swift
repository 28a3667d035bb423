import NIOCore
import NIOSSL
import Synchronization

/// One SMTP connection seen as commands and replies (RFC 5321 §4.1, §4.2), for ``SMTPMailTransport``.
///
/// Every step runs under a deadline (RFC 5321 §4.5.3.2 asks clients for per-command timeouts): when it
/// expires the channel is closed, which ends the pending read or write, and the step fails with an
/// ``SMTPError`` saying so. Other failures become an ``SMTPError`` of the step too. Used by one task at a
/// time, inside `NIOAsyncChannel.executeThenClose`.
final class SMTPSession {
    private let channel: any Channel
    private var replies: NIOAsyncChannelInboundStream<SMTPReply>.AsyncIterator
    private let writer: NIOAsyncChannelOutboundWriter<ByteBuffer>
    private let timeout: TimeAmount
    private var repliesRead = 0

    init(
        channel: NIOAsyncChannel<SMTPReply, ByteBuffer>, inbound: NIOAsyncChannelInboundStream<SMTPReply>,
        outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>, timeout: TimeAmount
    ) {
        self.channel = channel.channel
        self.replies = inbound.makeAsyncIterator()
        self.writer = outbound
        self.timeout = timeout
        self.peerIsLoopback = Self.isLoopback(channel.channel.remoteAddress)
    }

    /// The server's address is a loopback one (127.0.0.0/8, ::1), where a password in plain text never leaves
    /// the machine. Read once, when connected: a channel the server has closed since has no remote address, and
    /// must not read as "not loopback" (the step then fails as closed, which is what happened).
    let peerIsLoopback: Bool

    static func isLoopback(_ address: SocketAddress?) -> Bool {
        guard let ip = address?.ipAddress else { return false }
        return ip.hasPrefix("127.") || ip == "::1" || ip.lowercased().hasPrefix("::ffff:127.")
    }

    /// Reads the next reply and checks its code.
    @discardableResult
    func expectReply(_ step: SMTPError.Step, _ codes: Set<Int>) async throws -> SMTPReply {
        let reply = try await withDeadline(step) { try await self.nextReply() }
        try Self.check(reply, step, codes)
        return reply
    }

    /// Sends `line` and CRLF, then reads the reply and checks its code.
    @discardableResult
    func command(_ line: String, _ step: SMTPError.Step, expect codes: Set<Int>) async throws -> SMTPReply {
        try await send(ByteBuffer(string: line + "\r\n"), step, expect: codes)
    }

    /// Sends raw bytes (the mail data), then reads the reply and checks its code.
    @discardableResult
    func send(_ bytes: ByteBuffer, _ step: SMTPError.Step, expect codes: Set<Int>) async throws -> SMTPReply {
        let reply = try await withDeadline(step) {
            try await self.writer.write(bytes)
            return try await self.nextReply()
        }
        try Self.check(reply, step, codes)
        return reply
    }

    /// Waits for the handshake of a TLS handler added when the channel was made (`smtps://`).
    func completeHandshake(_ handshake: EventLoopFuture<Void>) async throws {
        try await withDeadline(.tlsHandshake) { try await handshake.get() }
    }

    /// After the server's `220` to `STARTTLS` (RFC 3207 §4): puts TLS at the front of the pipeline and waits for
    /// the handshake. Refuses when the server already sent more than that reply (RFC 3207 §6).
    func startTLS(context: NIOSSLContext, serverHostname: String?) async throws {
        let channel = channel
        let expected = repliesRead
        let handshake: EventLoopFuture<Void>
        do {
            handshake = try await channel.eventLoop.submit {
                let pipeline = channel.pipeline.syncOperations
                let decoder = try pipeline.handler(type: SMTPReplyDecoder.self)
                guard decoder.repliesDecoded == expected, !decoder.hasPendingInput else {
                    throw SMTPError(
                        step: .startTLS, code: nil,
                        message: "the server sent data after its STARTTLS reply, before the TLS handshake")
                }
                let watcher = TLSHandshakeWatcher(eventLoop: channel.eventLoop)
                try pipeline.addHandler(watcher, position: .first)
                try pipeline.addHandler(
                    NIOSSLClientHandler(context: context, serverHostname: serverHostname), position: .first)
                return watcher.handshakeResult
            }.get()
        } catch let error as SMTPError {
            throw error
        } catch {
            throw SMTPError(step: .tlsHandshake, code: nil, message: "could not start TLS: \(error)")
        }
        try await completeHandshake(handshake)
    }

    /// `QUIT`, ignoring the outcome (the message was already accepted, or the dialogue already failed).
    func quit() async {
        _ = try? await command("QUIT", .quit, expect: [221])
    }

    private func nextReply() async throws -> SMTPReply {
        guard let reply = try await replies.next() else { throw ConnectionClosed() }
        repliesRead += 1
        return reply
    }

    private static func check(_ reply: SMTPReply, _ step: SMTPError.Step, _ codes: Set<Int>) throws {
        guard codes.contains(reply.code) else {
            throw SMTPError(step: step, code: reply.code, message: reply.text)
        }
    }

    /// Runs `body`; closes the channel when it takes longer than the timeout.
    private func withDeadline<Result>(_ step: SMTPError.Step, _ body: () async throws -> Result) async throws
        -> Result
    {
        let expired = Expiry()
        let channel = channel
        let timer = channel.eventLoop.scheduleTask(in: timeout) {
            expired.fire()
            channel.close(promise: nil)
        }
        defer { timer.cancel() }
        do {
            return try await body()
        } catch {
            if expired.hasFired {
                let seconds = Double(timeout.nanoseconds) / 1_000_000_000
                throw SMTPError(step: step, code: nil, message: "timed out after \(seconds) s")
            }
            if let error = error as? SMTPError { throw error }
            throw SMTPError(step: step, code: nil, message: "\(error)")
        }
    }

    /// The server closed the connection instead of replying.
    private struct ConnectionClosed: Error, CustomStringConvertible {
        var description: String { "the server closed the connection" }
    }

    /// Set once by the timer, read by the task.
    private final class Expiry: Sendable {
        private let fired = Atomic(false)
        var hasFired: Bool { fired.load(ordering: .acquiring) }
        func fire() { fired.store(true, ordering: .releasing) }
    }
}
