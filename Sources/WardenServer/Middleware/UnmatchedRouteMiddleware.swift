import HTTPTypes
import Hummingbird
import WardenCore
import WardenWire

/// SPEC §11: a request no route answers gets its family's error shape instead of Hummingbird's empty 404.
///
/// An unknown path → 404; a known path with another method → 405 with `Allow` (RFC 9110 §15.5.6). The shape
/// follows the path: the Management shape (`errorCode` `not_found` / `method_not_allowed`) under `/api/v2/` and
/// for the device API and rich consents (SPEC §7), `{"error", "error_description"}` for the other API paths,
/// and the hosted error page for browser paths (everything else).
///
/// Added to the router after every route, so it wraps only Hummingbird's not-found responder (router
/// middleware applies to the routes added after it, and the not-found responder gets the whole chain).
struct UnmatchedRouteMiddleware: RouterMiddleware {
    typealias Context = WardenRequestContext

    /// Which error shape a path gets. Only for requests no route answers, where the path is all there is: a
    /// matched route's errors take its route group's shape (``ErrorMiddleware``).
    enum Family: Equatable {
        case management, api, browser

        /// Prefixes of the paths answered in the Management shape (SPEC §7, §9).
        static let managementPrefixes = ["/api/v2/", "/appliance-mfa/", "/rich-consents/"]
        /// Prefixes of the other JSON paths (the Authentication API, discovery, health and metrics).
        static let apiPrefixes = [
            "/oauth/", "/userinfo", "/.well-known/", "/bc-authorize", "/oidc/register", "/healthz", "/readyz",
            "/metrics", "/dbconnections/",
        ]

        init(path: String) {
            if path == "/api/v2" || Self.managementPrefixes.contains(where: path.hasPrefix) {
                self = .management
            } else if Self.apiPrefixes.contains(where: path.hasPrefix) {
                self = .api
            } else {
                self = .browser
            }
        }
    }

    /// One route of the router: a method at a path pattern.
    struct Route: Sendable {
        var method: String
        var path: RouterPath
    }

    let routes: [Route]

    /// The middleware for `routes`: `router.routes` once every route is added.
    init(routes: [Router<Context>.RouteDescription]) {
        self.routes = routes.map { Route(method: $0.method.rawValue, path: $0.path) }
    }

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound {
            let path = request.uri.path
            let allowed = allowedMethods(path: path)
            guard !allowed.isEmpty else { return try Self.notFound(path: path, request, context) }
            var response = try Self.methodNotAllowed(path: path, request, context)
            response.headers[.allow] = allowed.joined(separator: ", ")
            return response
        }
    }

    /// The methods of the routes whose pattern matches `path`, sorted; empty for an unknown path.
    func allowedMethods(path: String) -> [String] {
        let segments = path.split(separator: "/", omittingEmptySubsequences: true)
        let methods = routes.filter { Self.matches($0.path, segments) }.map(\.method)
        return Set(methods).sorted()
    }

    /// Whether `pattern` matches the path `segments` (`:capture` and `*` match one segment, `**` the rest).
    private static func matches(_ pattern: RouterPath, _ segments: [Substring]) -> Bool {
        let components = pattern.components
        for (index, component) in components.enumerated() {
            if component == .recursiveWildcard { return true }
            guard index < segments.count, component ~= segments[index] else { return false }
        }
        return components.count == segments.count
    }

    private static func notFound(path: String, _ request: Request, _ context: Context) throws -> Response {
        switch Family(path: path) {
        case .management:
            try ManagementError(statusCode: 404, errorCode: "not_found", message: "Not found: \(path)")
                .response(from: request, context: context)
        case .api:
            try OAuthError("not_found", "No endpoint at this path", status: 404).response(
                from: request, context: context)
        case .browser:
            PageRenderer.shared.response(ErrorPage.notFound)
        }
    }

    private static func methodNotAllowed(path: String, _ request: Request, _ context: Context) throws -> Response {
        let message = "\(request.method.rawValue) is not allowed at this path"
        return switch Family(path: path) {
        case .management:
            try ManagementError(statusCode: 405, errorCode: "method_not_allowed", message: message)
                .response(from: request, context: context)
        case .api:
            try OAuthError("method_not_allowed", message, status: 405).response(from: request, context: context)
        case .browser:
            PageRenderer.shared.response(ErrorPage.methodNotAllowed)
        }
    }
}
