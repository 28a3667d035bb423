public import Foundation
public import Hummingbird
import NIOCore
import WardenWire

/// The OAuth 2.0 Protected Resource Metadata document of RFC 9728 §2 (SPEC §13): how a client (an MCP client,
/// for one) learns which authorization server issues tokens for this resource and which scopes it knows.
public struct ProtectedResourceMetadata: Sendable, Hashable, Codable {
    /// The well-known path prefix (RFC 9728 §3).
    public static let wellKnownPath = "/.well-known/oauth-protected-resource"

    /// `resource`: the resource identifier, the audience of its tokens.
    public var resource: String
    /// `authorization_servers`: issuer identifiers of the authorization servers (RFC 8414).
    public var authorizationServers: [String]
    /// `scopes_supported`.
    public var scopesSupported: [String]
    /// `bearer_methods_supported`: how tokens may be sent (RFC 6750 §2); this SDK reads the `header` only.
    public var bearerMethodsSupported: [String]

    /// Creates a document.
    public init(
        resource: String, authorizationServers: [String], scopesSupported: [String],
        bearerMethodsSupported: [String] = ["header"]
    ) {
        self.resource = resource
        self.authorizationServers = authorizationServers
        self.scopesSupported = scopesSupported
        self.bearerMethodsSupported = bearerMethodsSupported
    }

    enum CodingKeys: String, CodingKey {
        case resource
        case authorizationServers = "authorization_servers"
        case scopesSupported = "scopes_supported"
        case bearerMethodsSupported = "bearer_methods_supported"
    }

    /// Where the document of `resource` is published (RFC 9728 §3.1): the well-known path inserted between the
    /// host and the resource's path (`https://api.example.com/mcp` →
    /// `https://api.example.com/.well-known/oauth-protected-resource/mcp`); `nil` if `resource` is not an URL.
    public static func url(for resource: String) -> URL? {
        guard var components = URLComponents(string: resource), components.host != nil else { return nil }
        let path = components.path == "/" ? "" : components.path
        components.path = wellKnownPath + path
        components.query = nil
        components.fragment = nil
        return components.url
    }

    /// The path this document is served at on the resource's own server (RFC 9728 §3.1).
    public var path: String {
        Self.url(for: resource)?.path ?? Self.wellKnownPath
    }

    /// The document as JSON, members in the RFC's order.
    public var json: String {
        JSONValue.serializedObject([
            ("resource", .string(resource)),
            ("authorization_servers", .array(authorizationServers.map(JSONValue.string))),
            ("scopes_supported", .array(scopesSupported.map(JSONValue.string))),
            ("bearer_methods_supported", .array(bearerMethodsSupported.map(JSONValue.string))),
        ])
    }
}

extension RouterMethods {
    /// Serves `metadata` at `GET` ``ProtectedResourceMetadata/path`` (RFC 9728 §3), `application/json`, without
    /// a token. Add it outside the routes that ``BearerTokenMiddleware`` protects.
    @discardableResult
    public func addProtectedResourceMetadata(_ metadata: ProtectedResourceMetadata) -> Self {
        let body = metadata.json
        return get(RouterPath(metadata.path)) { _, _ in
            Response(
                status: .ok, headers: [.contentType: "application/json"],
                body: .init(byteBuffer: ByteBuffer(string: body)))
        }
    }
}
