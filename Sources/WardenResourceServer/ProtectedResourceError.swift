import Foundation
public import Hummingbird
import NIOCore
public import WardenWire

/// A refusal of the resource server (RFC 6750 §3, SPEC §13): `{"error", "error_description"}` with
/// `Cache-Control: no-store`, and, when it is about the token, a `WWW-Authenticate: Bearer` ``BearerChallenge``.
///
/// The ``ProtectedResource`` makes the standard ones: ``missingToken(_:)`` (401, the bare challenge),
/// ``invalidToken(_:_:)`` (401 `invalid_token`), ``insufficientScope(_:_:)`` (403 naming the scope) and
/// ``malformedAuthorization(_:)`` (400 `invalid_request`). An API refuses for its own reasons with
/// ``refusal(_:_:_:_:)`` (a challenge naming the error) or ``init(status:code:description:challenge:)``.
public struct ProtectedResourceError: Error, Sendable, Equatable, HTTPResponseError {
    /// The HTTP status.
    public var status: HTTPResponse.Status
    /// The `error` code (an open set: RFC 6750 §3.1's, RFC 6749's, or the API's own).
    public var code: OAuthError.Code
    /// The `error_description`, for people.
    public var description: String
    /// The `WWW-Authenticate` challenge; `nil` for a refusal that is not about the token (a bad body).
    public var challenge: BearerChallenge?

    /// Creates an error.
    public init(status: HTTPResponse.Status, code: OAuthError.Code, description: String, challenge: BearerChallenge?) {
        self.status = status
        self.code = code
        self.description = description
        self.challenge = challenge
    }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        var headers: HTTPFields = [.contentType: "application/json", .cacheControl: "no-store"]
        if let challenge { headers[.wwwAuthenticate] = challenge.headerValue }
        let body = OAuthError(code, description).body.serialized
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: body)))
    }
}

extension ProtectedResourceError {
    /// RFC 6750 §3.1: a request without a token gets the challenge without an error code: 401, `realm` and
    /// `resource_metadata` only (RFC 9728 §5.1), so a client learns where to get a token.
    public static func missingToken(_ server: ProtectedResource) -> Self {
        Self(
            status: .unauthorized, code: .invalidToken, description: "Missing access token",
            challenge: server.challenge())
    }

    /// RFC 6750 §3.1 `invalid_request`: an `Authorization` header that is not `Bearer <token>` (400).
    public static func malformedAuthorization(_ server: ProtectedResource) -> Self {
        Self(
            status: .badRequest, code: .invalidRequest,
            description: "The Authorization header must be \"Bearer <access token>\"",
            challenge: server.challenge([("error", "invalid_request")]))
    }

    /// RFC 6750 §3.1 `invalid_token` (401): malformed, expired, not signed by the issuer, or for another audience.
    public static func invalidToken(_ description: String, _ server: ProtectedResource) -> Self {
        refusal(.unauthorized, .invalidToken, description, server)
    }

    /// RFC 6750 §3.1 `insufficient_scope` (403), the challenge naming the `scope` the request needs.
    public static func insufficientScope(_ scope: String, _ server: ProtectedResource) -> Self {
        Self(
            status: .forbidden, code: .insufficientScope, description: "This request needs the scope \(scope)",
            challenge: server.challenge([("error", "insufficient_scope"), ("scope", scope)]))
    }

    /// 503 `temporarily_unavailable`, no challenge: the issuer's JWKS could not be fetched, so the token could
    /// not be checked (the client's token may well be good).
    public static func keysUnavailable(_ server: ProtectedResource) -> Self {
        Self(
            status: .serviceUnavailable, code: "temporarily_unavailable",
            description: "The authorization server's keys cannot be fetched", challenge: nil)
    }

    /// A refusal about the token for the API's own reason (e.g. RFC 9396 `authorization_details` that do not
    /// cover the request): the challenge names `code` and `description`.
    public static func refusal(
        _ status: HTTPResponse.Status, _ code: OAuthError.Code, _ description: String, _ server: ProtectedResource
    ) -> Self {
        Self(
            status: status, code: code, description: description,
            challenge: server.challenge([("error", code.rawValue), ("error_description", description)]))
    }
}

/// A `WWW-Authenticate: Bearer` challenge (RFC 6750 §3): auth-params as quoted strings, in order.
public struct BearerChallenge: Sendable, Hashable {
    /// One `name="value"` auth-param.
    public struct Parameter: Sendable, Hashable {
        public var name: String
        public var value: String

        public init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The parameters, in order.
    public var parameters: [Parameter]

    public init(_ parameters: [Parameter]) {
        self.parameters = parameters
    }

    /// The header value: `Bearer` and the parameters, `, `-separated. Values keep only the characters RFC 6750
    /// §3 allows in them (printable ASCII but `"` and `\`, which become `'`; others become `?`), so a value
    /// taken from a token cannot break the header.
    public var headerValue: String {
        guard !parameters.isEmpty else { return "Bearer" }
        return "Bearer " + parameters.map { "\($0.name)=\"\(Self.quotable($0.value))\"" }.joined(separator: ", ")
    }

    private static func quotable(_ value: String) -> String {
        String(
            value.unicodeScalars.map { scalar -> Character in
                switch scalar {
                case "\"", "\\": "'"
                case " "..."~": Character(scalar)
                default: "?"
                }
            })
    }
}

extension ProtectedResource {
    /// The challenge of this resource: `realm` first when configured, then `parameters`, then
    /// `resource_metadata` when configured (RFC 9728 §5.1).
    func challenge(_ parameters: [(String, String)] = []) -> BearerChallenge {
        var all: [BearerChallenge.Parameter] = []
        if let realm = configuration.realm { all.append(.init("realm", realm)) }
        all += parameters.map { .init($0.0, $0.1) }
        if let url = configuration.resourceMetadataURL { all.append(.init("resource_metadata", url.absoluteString)) }
        return BearerChallenge(all)
    }
}
