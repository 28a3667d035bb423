import HTTPTypes
import Hummingbird

/// Echoes the request id (Hummingbird's `hb.request.id`, present in every log line of the request) in an
/// `X-Request-Id` response header, so a client can quote it in a bug report.
struct RequestIDMiddleware: RouterMiddleware {
    typealias Context = WardenRequestContext

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let id = context.id
        do {
            var response = try await next(request, context)
            response.headers[.requestID] = id
            return response
        } catch let error as any HTTPResponseError {
            var response = try error.response(from: request, context: context)
            response.headers[.requestID] = id
            return response
        }
    }
}

extension HTTPField.Name {
    static let requestID = HTTPField.Name("X-Request-Id")!
}
