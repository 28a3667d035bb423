import HTTPTypes
import Hummingbird
import Logging
import WardenCore
import WardenWire

/// The error body of a group of routes (SPEC conventions).
enum ErrorResponseShape: Sendable {
    /// `{"error", "error_description"}` (RFC 6749 §5.2): the Authentication API, discovery, health.
    case oauth
    /// `{"statusCode", "error", "message", "errorCode"}`: the Management API (SPEC §9) and the device API and
    /// rich consents (SPEC §7).
    case management
}

/// Turns any error that is not already an API error into the `server_error` shape of its route group (never a
/// stack trace), and logs the detail with the request id. While the database is down (as `store` tells), the
/// answer is 503 with `Retry-After` instead (SPEC §11, ``ServiceUnavailable``).
///
/// The router has one, in the OAuth shape, which also logs the debug detail of ``OAuthError`` and
/// ``ManagementError`` refusals (the detail never reaches the client). A route group whose errors take another
/// shape adds its own (`logsRefusals: false`, so a refusal is logged once, by the router's): the group's shape is
/// a property of its routes, not of a path prefix. Hosted pages answer their failures themselves
/// (``HostedPages``).
struct ErrorMiddleware: RouterMiddleware {
    typealias Context = WardenRequestContext
    /// The store whose errors may mean an outage.
    let store: any WardenStore
    /// The shape of the answer to an unexpected error or an outage on the routes below this middleware.
    let shape: ErrorResponseShape
    /// Whether refusals' debug details are logged here (the router's middleware) or left to an outer one.
    let logsRefusals: Bool

    init(store: any WardenStore, shape: ErrorResponseShape = .oauth, logsRefusals: Bool = true) {
        self.store = store
        self.shape = shape
        self.logsRefusals = logsRefusals
    }

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as OAuthError {
            if logsRefusals, let detail = error.debugDetail {
                context.logger.notice("\(error.code.rawValue): \(detail)")
            }
            throw error
        } catch let error as ManagementError {
            if logsRefusals, let detail = error.debugDetail {
                context.logger.notice("\(error.errorCode): \(detail)")
            }
            throw error
        } catch let error as HTTPError where error.status == .notFound || error.status == .methodNotAllowed {
            throw error
        } catch  where store.isUnavailable(error) {
            context.logger.warning("database unavailable", metadata: ["error": "\(String(reflecting: error))"])
            return try ServiceUnavailable.response(shape, to: request, context: context)
        } catch {
            context.logger.error("unhandled error", metadata: ["error": "\(String(reflecting: error))"])
            return switch shape {
            case .oauth: try OAuthError.serverError(debug: "\(error)").response(from: request, context: context)
            case .management:
                try ManagementError.serverError(debug: "\(error)").response(from: request, context: context)
            }
        }
    }
}
