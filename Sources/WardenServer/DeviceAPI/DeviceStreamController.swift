import HTTPTypes
import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOCore
import WardenCore
import WardenWire

/// `GET {issuer}appliance-mfa/api/device-accounts/{id}/stream` (SPEC §7.5): a WebSocket (RFC 6455) on which
/// the device, authorized as for its device account (SPEC §7.1), receives its pending transactions and then
/// each new one, each once per connection, as one text message with the webhook body of SPEC §7.2. What the
/// device sends is ignored; the server pings it every 30 s (RFC 6455 §5.5.2) so a dead connection is noticed,
/// and keeps nothing once the socket closes.
struct DeviceStreamController {
    static let path: RouterPath = "appliance-mfa/api/device-accounts/:id/stream"

    /// The server side of the upgrade: a ping every 30 s, and a peer that has not answered the previous one
    /// by then is disconnected. Plain HTTP connections get `handlers` after the HTTP codec.
    static func configuration(
        handlers: @escaping @Sendable () -> [any RemovableChannelHandler]
    ) -> HTTP1WebSocketUpgradeChannel.Configuration {
        HTTP1WebSocketUpgradeChannel.Configuration(
            http1: .init(additionalChannelHandlers: handlers()),
            ws: .init(autoPing: .enabled(timePeriod: .seconds(30))))
    }

    let runtime: WardenRuntime

    var authorization: DeviceAccountAuthorization { DeviceAPIController(runtime: runtime).authorization }

    /// The router of upgrade requests (RFC 6455 §4.2). A device that fails the authorization is refused the
    /// upgrade: hummingbird-websocket then answers a bare 400, so the same request without `Upgrade` (see
    /// ``addRoutes(to:)``) is how a device learns why.
    var webSocketRouter: Router<DeviceStreamRequestContext> {
        let router = Router(context: DeviceStreamRequestContext.self)
        let route = router.group(Self.path).add(middleware: Authorize(authorization: authorization))
        route.ws { inbound, outbound, context in
            guard let enrollment = context.requestContext.enrollment else { return }
            var logger = context.logger
            logger[metadataKey: "enrollment_id"] = .string(enrollment.id)
            try await stream(to: enrollment, inbound, outbound, logger: logger)
        }
        return router
    }

    /// The stream's path without an upgrade: 401 `invalid_token` or 404 `device_account_not_found` like any
    /// device-account request (SPEC §7), else 426 naming the protocol to upgrade to (RFC 9110 §15.5.22).
    func addRoutes(to router: some RouterMethods<WardenRequestContext>) {
        router.get(Self.path) { request, context in
            _ = try await authorization.authorize(request, enrollmentID: try DeviceAPIController.id(context))
            return Response(status: .upgradeRequired, headers: [.upgrade: "websocket", .connection: "Upgrade"])
        }
    }

    /// Sends the device's transactions until it closes the socket. Reading the socket answers pings and the
    /// close handshake (RFC 6455 §5.5); its messages are dropped.
    private func stream(
        to enrollment: DeviceEnrollment, _ inbound: WebSocketInboundStream, _ outbound: WebSocketOutboundWriter,
        logger: Logger
    ) async throws {
        try await runtime.deviceStreams.connection(enrollmentID: enrollment.id) { refreshes in
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { for try await _ in inbound {} }
                group.addTask { try await send(enrollment, on: refreshes, to: outbound, logger: logger) }
                try await group.next()
                group.cancelAll()
            }
        }
    }

    /// On each refresh, sends the pending transactions this connection has not sent, oldest first, and forgets
    /// those no longer pending (answered or expired).
    private func send(
        _ enrollment: DeviceEnrollment, on refreshes: AsyncStream<Void>, to outbound: WebSocketOutboundWriter,
        logger: Logger
    ) async throws {
        var sent = Set<String>()
        for await _ in refreshes {
            let pending: [(push: DevicePush, token: String)]
            do {
                pending = try await runtime.deviceTransactions.pending(for: enrollment)
            } catch {
                // Closing the socket makes the device reconnect, and get what is pending then.
                if !Task.isCancelled {
                    logger.warning("device stream cannot list transactions", metadata: ["error": "\(error)"])
                }
                throw error
            }
            sent.formIntersection(pending.map(\.push.transactionID))
            for (push, token) in pending where !sent.contains(push.transactionID) {
                try await outbound.writeTextMessage(push.webhookBody(transactionToken: token).serialized)
                sent.insert(push.transactionID)
            }
        }
    }
}

/// The request context of an upgrade to the device stream: the enrolment its authorization proved.
struct DeviceStreamRequestContext: RequestContext, WebSocketRequestContext {
    var coreContext: CoreRequestContextStorage
    let webSocket = WebSocketHandlerReference<Self>()
    /// Set by ``Authorize`` before the upgrade.
    var enrollment: DeviceEnrollment?

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
    }
}

/// Authorizes the device (SPEC §7.1) before its upgrade request reaches the WebSocket route.
private struct Authorize: RouterMiddleware {
    let authorization: DeviceAccountAuthorization

    func handle(
        _ request: Request, context: DeviceStreamRequestContext,
        next: (Request, DeviceStreamRequestContext) async throws -> Response
    ) async throws -> Response {
        var context = context
        context.enrollment = try await authorization.authorize(
            request, enrollmentID: try context.parameters.require("id"))
        return try await next(request, context)
    }
}
