import HTTPTypes
import Hummingbird
import Logging
import WardenCore
import WardenWire

/// Turns any error that is not already an API error into the `server_error` shape of the API that received
/// it (never a stack trace), and logs the detail with the request id. ``OAuthError`` and ``ManagementError``
/// with a debug detail are logged too (the detail never reaches the client). While the database is down (as
/// `store` tells), the answer is 503 with `Retry-After` instead (SPEC §11, ``ServiceUnavailable``).
struct ErrorMiddleware: RouterMiddleware {
    typealias Context = WardenRequestContext
    /// The store whose errors may mean an outage.
    let store: any WardenStore

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as OAuthError {
            if let detail = error.debugDetail {
                context.logger.notice("\(error.code.rawValue): \(detail)")
            }
            throw error
        } catch let error as ManagementError {
            if let detail = error.debugDetail {
                context.logger.notice("\(error.errorCode): \(detail)")
            }
            throw error
        } catch let error as HTTPError where error.status == .notFound || error.status == .methodNotAllowed {
            throw error
        } catch  where store.isUnavailable(error) {
            context.logger.warning("database unavailable", metadata: ["error": "\(String(reflecting: error))"])
            return try ServiceUnavailable.response(to: request, context: context)
        } catch {
            context.logger.error("unhandled error", metadata: ["error": "\(String(reflecting: error))"])
            // The shape of the route's family: the Management API and the device API answer in the Management
            // shape (SPEC §7, §9), the rest in the OAuth one.
            if UnmatchedRouteMiddleware.Family(path: request.uri.path) == .management {
                throw ManagementError.serverError(debug: "\(error)")
            }
            throw OAuthError.serverError(debug: "\(error)")
        }
    }
}
