public import Foundation
public import WardenClient
import WardenWire

/// An API or MCP server that accepts Warden's access tokens (SPEC §13 "Resource servers").
///
/// ```swift
/// let server = ProtectedResource(configuration: .init(
///     issuer: URL(string: "https://id.example.com/")!, resource: "https://api.example.com",
///     scopesSupported: ["read:balance", "transfer:funds"]))
/// let token = try await server.authenticate(authorization: request.headers[.authorization])
/// try server.requireScope("read:balance", in: token)
/// ```
///
/// It validates bearer tokens (RFC 6750 §2.1) as RFC 9068 §4 asks: `typ` `at+jwt`, the signature against the
/// issuer's JWKS (`{issuer}.well-known/jwks.json`, cached; an unknown `kid` costs at most one refetch per
/// ``Configuration/jwksRefetchInterval``), `iss`, this resource as (one of) the `aud`, `exp` and `nbf` with
/// ``Configuration/leeway``. It describes itself with RFC 9728 metadata (``metadata``) and makes the RFC 6750 §3
/// answers (``ProtectedResourceError``). ``BearerTokenMiddleware`` and ``RequiredScopeMiddleware`` do the same for
/// Hummingbird routes. The value is cheap to copy; copies share the JWKS cache.
public struct ProtectedResource: Sendable {
    /// What the resource server needs to know about itself and its authorization server.
    public struct Configuration: Sendable {
        /// Warden's issuer identifier, with its trailing slash (SPEC conventions), exactly as in tokens' `iss`.
        public var issuer: URL
        /// This resource's identifier (the API identifier in Warden): the audience its tokens must name, and the
        /// `resource` of its metadata (RFC 9728 §2, RFC 8707).
        public var resource: String
        /// The scopes this resource understands, published in its metadata (`scopes_supported`).
        public var scopesSupported: [String]
        /// The clock skew tolerated on `exp` and `nbf` (30 seconds by default).
        public var leeway: Duration
        /// The least time between two JWKS refetches caused by unknown `kid`s (30 seconds by default): within it,
        /// a token of another unknown `kid` is refused without a fetch.
        public var jwksRefetchInterval: Duration
        /// The `resource_metadata` URL named in every challenge (RFC 9728 §5.1); `nil` leaves it out. Defaults
        /// to ``ProtectedResourceMetadata/url(for:)`` of ``resource``.
        public var resourceMetadataURL: URL?
        /// The `realm` of every challenge (RFC 6750 §3); `nil` (the default) leaves it out.
        public var realm: String?

        /// Creates a configuration.
        public init(
            issuer: URL, resource: String, scopesSupported: [String] = [], leeway: Duration = .seconds(30),
            jwksRefetchInterval: Duration = .seconds(30), resourceMetadataURL: URL? = nil, realm: String? = nil
        ) {
            self.issuer = issuer
            self.resource = resource
            self.scopesSupported = scopesSupported
            self.leeway = leeway
            self.jwksRefetchInterval = jwksRefetchInterval
            self.resourceMetadataURL = resourceMetadataURL ?? ProtectedResourceMetadata.url(for: resource)
            self.realm = realm
        }
    }

    /// The server's configuration.
    public let configuration: Configuration
    private let verifier: JWTVerifier

    /// Creates a resource server; `transport` fetches the JWKS (AsyncHTTPClient by default).
    public init(configuration: Configuration, transport: any HTTPTransport = AsyncHTTPTransport.shared) {
        self.configuration = configuration
        let issuer = Self.issuerIdentifier(configuration.issuer)
        let jwks = URL(string: issuer + ".well-known/jwks.json")!
        self.verifier = JWTVerifier(
            keys: JWKSCache(url: jwks, transport: transport, refetchInterval: configuration.jwksRefetchInterval),
            issuer: issuer, leeway: configuration.leeway)
    }

    /// The RFC 9728 §2 document describing this resource, with Warden as its authorization server.
    public var metadata: ProtectedResourceMetadata {
        ProtectedResourceMetadata(
            resource: configuration.resource, authorizationServers: [Self.issuerIdentifier(configuration.issuer)],
            scopesSupported: configuration.scopesSupported)
    }

    /// The issuer as tokens name it: with its trailing slash (SPEC conventions).
    static func issuerIdentifier(_ issuer: URL) -> String {
        let string = issuer.absoluteString
        return string.hasSuffix("/") ? string : string + "/"
    }

    /// How many times the JWKS was fetched so far (shared by copies of this value).
    public var jwksFetchCount: Int {
        get async { await verifier.keys.fetchCount }
    }

    /// The verified token of an `Authorization` header value (RFC 6750 §2.1).
    ///
    /// Throws ``ProtectedResourceError/missingToken`` without a header, ``ProtectedResourceError/malformedAuthorization``
    /// for another scheme or shape (400 `invalid_request`), and ``validate(_:)``'s errors.
    public func authenticate(authorization: String?) async throws(ProtectedResourceError) -> VerifiedAccessToken {
        guard let authorization else { throw .missingToken(self) }
        let parts = authorization.split(separator: " ", omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { throw .malformedAuthorization(self) }
        return try await validate(String(parts[1]))
    }

    /// Validates an access token (RFC 9068 §4, SPEC §3) for this resource.
    ///
    /// Throws ``ProtectedResourceError/invalidToken(_:_:)`` (401 `invalid_token`) naming the failed check, or
    /// ``ProtectedResourceError/keysUnavailable(_:)`` (503) when the JWKS cannot be fetched.
    public func validate(_ token: String) async throws(ProtectedResourceError) -> VerifiedAccessToken {
        let claims: VerifiedClaims
        do {
            claims = try await verifier.verify(token, type: "at+jwt") {
                WardenClientError(error: OAuthError.Code.invalidToken.rawValue, errorDescription: $0)
            }
        } catch let error as WardenClientError
            where error.error == OAuthError.Code.invalidToken.rawValue && error.status == nil
        {
            throw .invalidToken(error.errorDescription ?? error.error, self)
        } catch {
            throw .keysUnavailable(self)
        }
        guard claims.audience.contains(configuration.resource) else {
            throw .invalidToken("aud \(claims.audience) does not contain \(configuration.resource)", self)
        }
        return VerifiedAccessToken(claims)
    }

    /// Throws ``ProtectedResourceError/insufficientScope(_:_:)`` (403, RFC 6750 §3.1) unless `token` grants `scope`.
    public func requireScope(_ scope: String, in token: VerifiedAccessToken) throws(ProtectedResourceError) {
        guard token.scope.contains(scope) else { throw .insufficientScope(scope, self) }
    }
}
