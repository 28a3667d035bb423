import WardenCore

/// One grant type of the token endpoint (RFC 6749 §4): adding a grant is adding one conforming type and
/// one line in ``GrantRegistry``.
protocol GrantHandler: Sendable {
    /// The `grant_type` value this handler answers.
    var grantType: GrantType { get }
    /// Whether the client must authenticate (confidential clients) — public clients may use some grants
    /// with `client_id` alone.
    var requiresClientAuthentication: Bool { get }
    /// The log event written when an exchange of this grant fails (SPEC §10), client authentication included.
    var failureEvent: LogEventType { get }
    /// Checks the request and issues tokens, or throws an ``OAuthError``.
    func exchange(_ request: TokenRequest) async throws -> TokenResponse
    /// Whether a failed exchange writes ``failureEvent`` (every failure unless a grant says otherwise).
    func logs(_ error: OAuthError) -> Bool
}

extension GrantHandler {
    func logs(_ error: OAuthError) -> Bool { true }
}

/// What a grant handler receives: the parameters, the authenticated client, and where the request came from.
struct TokenRequest: Sendable {
    let parameters: RequestParameters
    let client: ClientRecord
    let ip: String?
    let userAgent: String?

    /// A required parameter, or `invalid_request` naming it.
    func require(_ name: String) throws(OAuthError) -> String {
        guard let value = parameters[name] else { throw .invalidRequest("Missing required parameter: \(name)") }
        return value
    }
}

/// A successful token response (RFC 6749 §5.1), members in wire order.
struct TokenResponse: Sendable {
    var members: [(String, JSONValue)]
}

/// The grants this server answers, by `grant_type`.
struct GrantRegistry: Sendable {
    private let handlers: [GrantType: any GrantHandler]

    init(runtime: WardenRuntime) {
        let issuer = TokenIssuer(runtime: runtime)
        let all: [any GrantHandler] = [
            ClientCredentialsGrant(runtime: runtime, issuer: issuer),
            AuthorizationCodeGrantHandler(runtime: runtime, issuer: issuer),
            RefreshTokenGrant(runtime: runtime, issuer: issuer),
            CIBAGrant(runtime: runtime, issuer: issuer),
        ]
        handlers = Dictionary(uniqueKeysWithValues: all.map { ($0.grantType, $0) })
    }

    func handler(for grantType: GrantType) -> (any GrantHandler)? {
        handlers[grantType]
    }

    /// For discovery's `grant_types_supported`.
    var grantTypes: [String] { handlers.keys.map(\.rawValue).sorted() }
}
