import HTTPTypes
import Hummingbird
import Logging
import Synchronization
import WardenCore

/// One log line per request (`request`, at `info`; health, readiness and metrics probes at `debug`): method,
/// route template (never the raw path, which may carry a code or a token), status, duration in milliseconds,
/// and the client id once known. The request id is in every line of the request already (`hb.request.id`,
/// echoed as `X-Request-Id`). Never a query string, a body, a header value or a secret.
struct RequestLogMiddleware: RouterMiddleware {
    typealias Context = WardenRequestContext

    /// Probes an operator does not want a line for at `info`.
    static let quietRoutes: Set<String> = ["/healthz", "/readyz", "/metrics"]

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        // A level that drops every request line (above `info`): no facts gathered, no clock read, no task-local.
        guard context.logger.logLevel <= .info else { return try await next(request, context) }
        let start = ContinuousClock.now
        let facts = RequestFacts()
        do {
            let response = try await RequestFacts.$current.withValue(facts) { try await next(request, context) }
            log(request, context, status: response.status, since: start, facts: facts)
            return response
        } catch {
            let status = (error as? any HTTPResponseError)?.status ?? .internalServerError
            log(request, context, status: status, since: start, facts: facts)
            throw error
        }
    }

    private func log(
        _ request: Request, _ context: Context, status: HTTPResponse.Status, since start: ContinuousClock.Instant,
        facts: RequestFacts
    ) {
        let route = context.endpointPath ?? "(no route)"
        Self.line(
            to: context.logger, level: Self.quietRoutes.contains(route) ? .debug : .info, method: request.method,
            route: route, status: status, elapsed: ContinuousClock.now - start, clientID: facts.clientID)
    }

    /// Writes the request line at `level`: method, route template, status, duration in milliseconds and the
    /// client id when known. Also for requests answered before the router (``PreparedResponseHandler``).
    static func line(
        to logger: Logger, level: Logger.Level, method: HTTPRequest.Method, route: String,
        status: HTTPResponse.Status, elapsed: Duration, clientID: String? = nil
    ) {
        guard logger.logLevel <= level else { return }
        let milliseconds =
            Double(elapsed.components.attoseconds / 1_000_000_000_000) / 1000
            + Double(elapsed.components.seconds * 1000)
        var metadata: Logger.Metadata = [
            "method": "\(method.rawValue)", "route": "\(route)", "status": "\(status.code)",
            "duration_ms": "\(milliseconds)",
        ]
        if let clientID { metadata["client_id"] = "\(clientID)" }
        logger.log(level: level, "request", metadata: metadata)
    }
}

/// What a handler learns about its request that the request line reports (the client it authenticated), set
/// through the task-local ``current`` so that no handler signature changes for it.
final class RequestFacts: Sendable {
    @TaskLocal static var current: RequestFacts?

    private let storage = Mutex<String?>(nil)

    /// The client id the request authenticated as (or claimed, when its authentication failed), cut to 64
    /// characters and cleaned like any client-supplied text (SPEC §11).
    var clientID: String? {
        get { storage.withLock { $0 }.map(DisplayText.clean) }
        set {
            let cut = newValue.map { String($0.prefix(64)) }
            storage.withLock { $0 = cut }
        }
    }

    /// Records the client of the current request, if a request is being served.
    static func client(_ id: String?) {
        current?.clientID = id
    }
}
