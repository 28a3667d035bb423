public import Hummingbird

/// A request context that carries the request's verified access token, set by ``BearerTokenMiddleware``
/// (the shape of HummingbirdAuth's `AuthRequestContext`). Adopt it in the app's own context, or use
/// ``BasicAccessTokenRequestContext``.
public protocol AccessTokenRequestContext: RequestContext {
    /// The request's verified bearer token; `nil` before ``BearerTokenMiddleware`` ran.
    var accessToken: VerifiedAccessToken? { get set }
}

extension AccessTokenRequestContext {
    /// The verified token; a 401 `HTTPError` when none was verified (a route outside ``BearerTokenMiddleware``).
    public func requireAccessToken() throws -> VerifiedAccessToken {
        guard let accessToken else { throw HTTPError(.unauthorized, message: "No verified access token") }
        return accessToken
    }
}

/// The smallest ``AccessTokenRequestContext``.
public struct BasicAccessTokenRequestContext: AccessTokenRequestContext {
    public var coreContext: CoreRequestContextStorage
    public var accessToken: VerifiedAccessToken?

    public init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.accessToken = nil
    }
}

/// Validates the request's bearer token (RFC 6750 §2.1) with a ``ProtectedResource`` and puts it in the context;
/// otherwise answers ``ProtectedResourceError/missingToken(_:)``, ``ProtectedResourceError/malformedAuthorization(_:)``
/// or ``ProtectedResourceError/invalidToken(_:_:)``.
///
/// ```swift
/// let router = Router(context: BasicAccessTokenRequestContext.self)
/// router.addProtectedResourceMetadata(server.metadata)
/// let api = router.group().add(middleware: BearerTokenMiddleware(server))
/// api.group("balance").add(middleware: RequiredScopeMiddleware("read:balance", server))
///     .get { _, context in try await balance(of: context.requireAccessToken()) }
/// ```
public struct BearerTokenMiddleware<Context: AccessTokenRequestContext>: RouterMiddleware {
    let server: ProtectedResource

    /// Creates the middleware for `server`.
    public init(_ server: ProtectedResource) {
        self.server = server
    }

    public func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var context = context
        context.accessToken = try await server.authenticate(authorization: request.headers[.authorization])
        return try await next(request, context)
    }
}

/// A route's scope requirement: after ``BearerTokenMiddleware``, answers 403 ``ProtectedResourceError/insufficientScope(_:_:)``
/// unless the token grants `scope` (401 ``ProtectedResourceError/missingToken(_:)`` if no token was verified).
public struct RequiredScopeMiddleware<Context: AccessTokenRequestContext>: RouterMiddleware {
    /// The scope the routes need.
    public let scope: String
    let server: ProtectedResource

    /// Creates the requirement of `scope`, answered in `server`'s terms.
    public init(_ scope: String, _ server: ProtectedResource) {
        self.scope = scope
        self.server = server
    }

    public func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard let token = context.accessToken else { throw ProtectedResourceError.missingToken(server) }
        try server.requireScope(scope, in: token)
        return try await next(request, context)
    }
}
