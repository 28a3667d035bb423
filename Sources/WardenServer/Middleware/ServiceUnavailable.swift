import HTTPTypes
import Hummingbird
import WardenCore
import WardenWire

/// The answer while the database cannot be reached (SPEC §11): 503 with `Retry-After`, in the route group's
/// shape — `temporarily_unavailable` (RFC 6749 §4.1.2.1) at the OAuth endpoints, the Management shape with 503
/// "Service Unavailable" under `/api/v2/` and for the device API, the hosted error page on browser paths.
enum ServiceUnavailable {
    /// Seconds a client should wait before trying again.
    static let retryAfter = 5

    static func response(
        _ shape: ErrorResponseShape, to request: Request, context: some RequestContext
    ) throws -> Response {
        let message = "The service is temporarily unavailable; try again shortly"
        var response =
            switch shape {
            case .oauth:
                try OAuthError("temporarily_unavailable", message, status: 503).response(
                    from: request, context: context)
            case .management:
                try ManagementError(statusCode: 503, errorCode: "temporarily_unavailable", message: message)
                    .response(from: request, context: context)
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
