public import Foundation

/// A relying party's client for Warden: login with PKCE, CIBA, refresh, session transfer, userinfo, and token
/// validation against the published JWKS.
///
/// ```swift
/// let client = try await WardenClient.discover(
///     issuer: URL(string: "https://id.example.com/")!, clientID: "demo-native")
/// let request = client.authorizationRequest(
///     redirectURI: URL(string: "com.example.app:/callback")!, scope: ["openid", "offline_access"])
/// // open request.url in a browser, receive the callback URL, then:
/// let code = try client.authorizationCode(from: callbackURL, for: request)
/// let tokens = try await client.exchangeCode(code, for: request)
/// ```
///
/// The client is a value; copies share the transport and the JWKS cache. Every method throws
/// ``WardenClientError`` (and `CancellationError` when its task is cancelled).
public struct WardenClient: Sendable {
    /// What the client needs to know about itself and the provider.
    public struct Configuration: Sendable {
        /// The issuer identifier (SPEC: `{issuer}` with a trailing slash).
        public var issuer: URL
        /// This application's `client_id`.
        public var clientID: String
        /// How this client authenticates at the token and backchannel endpoints.
        public var authentication: ClientAuthentication
        /// The provider's endpoints, usually from ``WardenClient/discover(issuer:clientID:authentication:transport:)``.
        public var metadata: ProviderMetadata
        /// The clock skew tolerated when checking `exp`, `iat` and `auth_time` (60 seconds by default).
        public var leeway: Duration

        /// Creates a configuration.
        public init(
            issuer: URL, clientID: String, authentication: ClientAuthentication = .none, metadata: ProviderMetadata,
            leeway: Duration = .seconds(60)
        ) {
            self.issuer = issuer
            self.clientID = clientID
            self.authentication = authentication
            self.metadata = metadata
            self.leeway = leeway
        }
    }

    /// The client's configuration.
    public let configuration: Configuration
    let transport: any HTTPTransport
    let keys: JWKSCache

    /// Creates a client from a known configuration.
    public init(configuration: Configuration, transport: any HTTPTransport = AsyncHTTPTransport.shared) {
        self.configuration = configuration
        self.transport = transport
        self.keys = JWKSCache(url: configuration.metadata.jwksURI, transport: transport)
    }

    /// Reads `{issuer}.well-known/openid-configuration` (OpenID Connect Discovery 1.0 §4, SPEC §2) and creates a
    /// client for it. The document's `issuer` must be `issuer` (§4.3; a missing trailing slash is added).
    public static func discover(
        issuer: URL, clientID: String, authentication: ClientAuthentication = .none,
        transport: any HTTPTransport = AsyncHTTPTransport.shared
    ) async throws -> WardenClient {
        let base = Self.withTrailingSlash(issuer)
        guard let url = URL(string: base + ".well-known/openid-configuration") else {
            throw WardenClientError.invalidResponse("cannot build a discovery URL from \(issuer)")
        }
        let response = try await send(
            HTTPRequest(method: "GET", url: url, headers: [("Accept", "application/json")]), transport)
        let metadata = try decodeSuccess(ProviderMetadata.self, from: response)
        guard withTrailingSlash(metadata.issuer) == base else {
            throw WardenClientError.invalidResponse(
                "the discovery document's issuer \(metadata.issuer) is not \(base) (OpenID Connect Discovery §4.3)")
        }
        return WardenClient(
            configuration: Configuration(
                issuer: metadata.issuer, clientID: clientID, authentication: authentication, metadata: metadata),
            transport: transport)
    }

    // MARK: - Shared plumbing

    static func withTrailingSlash(_ url: URL) -> String {
        let string = url.absoluteString
        return string.hasSuffix("/") ? string : string + "/"
    }

    /// Sends `request`; a transport failure becomes `transport`, cancellation stays `CancellationError`.
    static func send(_ request: HTTPRequest, _ transport: any HTTPTransport) async throws -> HTTPResponse {
        do {
            return try await transport.send(request)
        } catch let error as CancellationError {
            throw error
        } catch {
            throw WardenClientError(error: "transport", errorDescription: "\(request.method) \(request.url): \(error)")
        }
    }

    /// Decodes a 2xx body as `T`; any other status throws the server's OAuth error.
    static func decodeSuccess<T: Decodable>(_ type: T.Type, from response: HTTPResponse) throws -> T {
        guard (200..<300).contains(response.status) else { throw OAuthErrorBody.error(in: response) }
        do {
            return try JSONDecoder().decode(type, from: response.body)
        } catch {
            throw WardenClientError.invalidResponse("\(T.self): \(error)", status: response.status)
        }
    }

    /// POSTs `fields` as a form to `url`, authenticating the client as configured (RFC 6749 §2.3.1).
    func postForm(_ url: URL, _ fields: [(String, String)]) async throws -> HTTPResponse {
        var fields = fields
        var headers = [("Content-Type", "application/x-www-form-urlencoded"), ("Accept", "application/json")]
        switch configuration.authentication {
        case .none:
            fields.append(("client_id", configuration.clientID))
        case .clientSecretPost(let secret):
            fields += [("client_id", configuration.clientID), ("client_secret", secret)]
        case .clientSecretBasic(let secret):
            let pair = FormEncoding.encode(configuration.clientID) + ":" + FormEncoding.encode(secret)
            headers.append(("Authorization", "Basic " + Data(pair.utf8).base64EncodedString()))
        }
        let request = HTTPRequest(
            method: "POST", url: url, headers: headers, body: Data(FormEncoding.encode(fields).utf8))
        return try await Self.send(request, transport)
    }
}
