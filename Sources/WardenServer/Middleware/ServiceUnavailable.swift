import HTTPTypes
import Hummingbird
import WardenCore
import WardenWire

/// The answer while the database cannot be reached (SPEC §11): 503 with `Retry-After`, in the family's shape —
/// `temporarily_unavailable` (RFC 6749 §4.1.2.1) at the OAuth endpoints, the Management shape with 503 "Service
/// Unavailable" under `/api/v2/` and for the device API, the hosted error page on browser paths.
enum ServiceUnavailable {
    /// Seconds a client should wait before trying again.
    static let retryAfter = 5

    static func response(to request: Request, context: some RequestContext) throws -> Response {
        var response: Response
        switch UnmatchedRouteMiddleware.Family(path: request.uri.path) {
        case .management:
            response = try ManagementError(
                statusCode: 503, errorCode: "temporarily_unavailable",
                message: "The service is temporarily unavailable; try again shortly"
            ).response(from: request, context: context)
        case .api:
            response = try OAuthError(
                "temporarily_unavailable", "The service is temporarily unavailable; try again shortly", status: 503
            ).response(from: request, context: context)
        case .browser:
            return pageResponse()
        }
        response.headers[.retryAfter] = String(retryAfter)
        return response
    }

    /// The hosted error page, 503 with `Retry-After`.
    static func pageResponse() -> Response {
        var response = PageRenderer.shared.response(ErrorPage.temporarilyUnavailable)
        response.headers[.retryAfter] = String(retryAfter)
        return response
    }
}
