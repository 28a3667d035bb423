import NIOCore
import NIOTLS

/// Sits right after `NIOSSLClientHandler` and completes ``handshakeResult`` when the TLS handshake is done:
/// succeeded on `TLSUserEvent.handshakeCompleted`, failed with the first error (a refused certificate, RFC 3207
/// §4.1) or when the channel closes first. Everything else passes through unchanged.
final class TLSHandshakeWatcher: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    /// The channel closed before the handshake finished.
    struct ClosedDuringHandshake: Error, CustomStringConvertible {
        var description: String { "the connection closed during the TLS handshake" }
    }

    let handshakeResult: EventLoopFuture<Void>
    private var promise: EventLoopPromise<Void>?

    init(eventLoop: any EventLoop) {
        let promise = eventLoop.makePromise(of: Void.self)
        self.promise = promise
        self.handshakeResult = promise.futureResult
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let event = event as? TLSUserEvent, case .handshakeCompleted = event {
            complete(.success(()))
        }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        complete(.failure(error))
        context.fireErrorCaught(error)
    }

    func channelInactive(context: ChannelHandlerContext) {
        complete(.failure(ClosedDuringHandshake()))
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        complete(.failure(ClosedDuringHandshake()))
    }

    private func complete(_ result: Result<Void, any Error>) {
        promise?.completeWith(result)
        promise = nil
    }
}
