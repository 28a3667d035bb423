import NIOCore

/// Turns the server's bytes into ``SMTPReply`` values: lines end with CRLF (RFC 5321 §2.3.8; a bare LF is
/// accepted too), and the lines of a multi-line reply are gathered into one (§4.2.1).
///
/// A line longer than ``maximumLineLength`` or a malformed reply is an error: the handler reports it down the
/// pipeline and closes the channel. It counts the replies it has produced and tells whether bytes are waiting,
/// so the STARTTLS step can refuse a server that sent more than its `220` before the TLS handshake (text
/// injected in plain text must not be read as if it came over TLS, RFC 3207 §4.2, §6).
final class SMTPReplyDecoder: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = SMTPReply

    /// RFC 5321 §4.5.3.1.5 sets 512 octets for a reply line; this leaves room for lenient servers.
    static let maximumLineLength = 4096

    private var buffer = ByteBuffer()
    private var assembler = SMTPReply.Assembler()
    private var failed = false
    /// Replies passed on so far.
    private(set) var repliesDecoded = 0

    /// Bytes of an unfinished line or lines of an unfinished reply are waiting.
    var hasPendingInput: Bool { buffer.readableBytes > 0 || !assembler.isEmpty }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !failed else { return }
        var input = unwrapInboundIn(data)
        buffer.writeBuffer(&input)
        do {
            while let newline = buffer.readableBytesView.firstIndex(of: UInt8(ascii: "\n")) {
                let length = newline - buffer.readerIndex + 1
                guard length <= Self.maximumLineLength else { throw Self.lineTooLong }
                var line = buffer.readSlice(length: length)!
                var bytes = line.readBytes(length: line.readableBytes)!.dropLast()
                if bytes.last == UInt8(ascii: "\r") { bytes = bytes.dropLast() }
                if let reply = try assembler.append(String(decoding: bytes, as: UTF8.self)) {
                    repliesDecoded += 1
                    context.fireChannelRead(wrapInboundOut(reply))
                }
            }
            guard buffer.readableBytes <= Self.maximumLineLength else { throw Self.lineTooLong }
            buffer.discardReadBytes()
        } catch {
            failed = true
            buffer.clear()
            context.fireErrorCaught(error)
            context.close(promise: nil)
        }
    }

    private static let lineTooLong = SMTPReply.MalformedReply(
        description: "reply line longer than \(maximumLineLength) octets")
}
