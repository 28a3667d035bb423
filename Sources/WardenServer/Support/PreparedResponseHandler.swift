import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import Metrics
import NIOCore
import NIOHTTPTypes
import Synchronization
import WardenCore

/// The documents Warden answers from prepared bytes on the event loop, before the router: today the JWKS
/// (RFC 7517 §5, SPEC §2), which every resource server and client fetches and which is the same bytes until
/// the key ring changes. Issue 16 (item 7): going through the router's task, middlewares and the async
/// channel cost more than the document itself.
///
/// The answer is the router's, byte for byte: the same headers (`Content-Type`, `Cache-Control`,
/// `X-Request-Id`, `Date`, `Server`), the same `hb.requests` and `http.server.request.duration` metrics and,
/// at `info`, the same `request` log line.
final class PreparedResponses: Sendable {
    /// The path answered here (a query string, another method or an explicit `Connection` header go to the
    /// router, which answers them as it always has).
    static let jwksPath = DiscoveryController.jwksPath

    private let keys: KeyRing
    private let serverName: String
    private let logger: Logger
    private let dates = HTTPDateCache()
    private let prepared = Mutex<(json: String, body: ByteBuffer)?>(nil)
    private let requests: Counter
    private let durations: Metrics.Timer

    /// - Parameters:
    ///   - keys: the key ring whose JWKS is served.
    ///   - serverName: the `Server` header the application sets on every response.
    ///   - logger: the server's logger, for the request line at `info`.
    init(keys: KeyRing, serverName: String, logger: Logger) {
        self.keys = keys
        self.serverName = serverName
        self.logger = logger
        let dimensions = [
            ("http.route", Self.jwksPath), ("http.request.method", "GET"), ("http.response.status_code", "200"),
        ]
        requests = Counter(label: "hb.requests", dimensions: dimensions)
        durations = Metrics.Timer(
            label: "http.server.request.duration", dimensions: dimensions, preferredDisplayUnit: .seconds)
    }

    /// Whether `request` is answered here.
    func answers(_ request: HTTPRequest) -> Bool {
        request.method == .get && request.path == Self.jwksPath && request.headerFields[.connection] == nil
    }

    /// The response to a request ``answers(_:)`` accepted, with the current JWKS.
    func response() -> (head: HTTPResponse, body: ByteBuffer) {
        let json = keys.snapshot.jwksJSON
        let body = prepared.withLock { cached in
            if let cached, cached.json == json { return cached.body }
            let body = ByteBuffer(string: json)
            cached = (json, body)
            return body
        }
        let id = RequestID().description
        var head = HTTPResponse(status: .ok)
        head.headerFields[.contentType] = "application/json"
        head.headerFields[.contentLength] = String(body.readableBytes)
        head.headerFields[.cacheControl] = DiscoveryController.jwksCacheControl
        head.headerFields[.requestID] = id
        head.headerFields[.date] = dates.now()
        head.headerFields[.server] = serverName
        return (head, body)
    }

    /// Records the answered request as the router's middlewares would.
    func record(requestID: String, since start: ContinuousClock.Instant) {
        let elapsed = ContinuousClock.now - start
        requests.increment()
        durations.recordNanoseconds(
            elapsed.components.seconds * 1_000_000_000 + elapsed.components.attoseconds / 1_000_000_000)
        guard logger.logLevel <= .info else { return }
        var logger = logger
        logger[metadataKey: "hb.request.id"] = "\(requestID)"
        RequestLogMiddleware.line(
            to: logger, level: .info, method: .get, route: Self.jwksPath, status: .ok, elapsed: elapsed)
    }

    /// A channel handler answering on this connection.
    func handler() -> PreparedResponseHandler {
        PreparedResponseHandler(responses: self)
    }
}

/// Answers ``PreparedResponses`` on the event loop, between the HTTP codec and Hummingbird's async channel.
///
/// HTTP/1.1 answers in request order (RFC 9112 §9.3.2): a request is answered here only when none is with the
/// router, so a pipelined JWKS request behind a slow token request waits its turn (the router serves it).
final class PreparedResponseHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let responses: PreparedResponses
    /// Requests passed to the router whose response has not ended yet.
    private var withRouter = 0
    /// When the request being read is answered here: since when.
    private var answering: ContinuousClock.Instant?

    init(responses: PreparedResponses) {
        self.responses = responses
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let part = unwrapInboundIn(data)
        switch part {
        case .head(let request):
            if withRouter == 0, answering == nil, responses.answers(request) {
                answering = .now
                return
            }
            withRouter += 1
        case .body:
            if answering != nil { return }
        case .end:
            if let start = answering {
                answering = nil
                let (head, body) = responses.response()
                context.write(wrapOutboundOut(.head(head)), promise: nil)
                context.write(wrapOutboundOut(.body(body)), promise: nil)
                context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
                responses.record(requestID: head.headerFields[.requestID] ?? "", since: start)
                return
            }
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data), withRouter > 0 { withRouter -= 1 }
        context.write(data, promise: promise)
    }
}

/// The `Date` header's value (RFC 9110 §5.6.7, IMF-fixdate), formatted once per second.
final class HTTPDateCache: Sendable {
    private let cached = Mutex<(second: Int, text: String)>((-1, ""))

    /// The current time as an HTTP date.
    func now() -> String {
        let second = Int(Date().timeIntervalSince1970)
        return cached.withLock { cached in
            if cached.second != second { cached = (second, Self.format(epochSeconds: second)) }
            return cached.text
        }
    }

    private static let weekdays = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// `epochSeconds` (since 1970-01-01T00:00:00Z, not before it) as `Sun, 06 Nov 1994 08:49:37 GMT`.
    static func format(epochSeconds: Int) -> String {
        let days = epochSeconds / 86_400
        let secondOfDay = epochSeconds % 86_400
        let (year, month, day) = RFC3339Timestamp.civil(daysSinceEpoch: Int64(days))
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let clock = "\(two(secondOfDay / 3600)):\(two(secondOfDay / 60 % 60)):\(two(secondOfDay % 60))"
        return "\(weekdays[days % 7]), \(two(Int(day))) \(months[Int(month) - 1]) \(year) \(clock) GMT"
    }
}
