import WardenCore
import WardenWire

/// One grant type of the token endpoint (RFC 6749 §4): adding a grant is adding one conforming type and
/// one line in ``WardenRuntime/makeGrantRegistry()``.
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

/// The grants this server answers, by `grant_type` (and, for a session transfer in the reference SDK's form,
/// by `audience`: SPEC §8).
struct GrantRegistry: Sendable {
    private let handlers: [GrantType: any GrantHandler]
    private let sessionTransfer: SessionTransferGrant

    /// A registry of `handlers`, one per grant type, and of `sessionTransfer`, which answers the
    /// `grant_type=refresh_token` requests that ask for a session transfer token.
    init(handlers: [any GrantHandler], sessionTransfer: SessionTransferGrant) {
        self.handlers = Dictionary(uniqueKeysWithValues: handlers.map { ($0.grantType, $0) })
        self.sessionTransfer = sessionTransfer
    }

    func handler(for grantType: GrantType, parameters: RequestParameters) -> (any GrantHandler)? {
        if grantType == .refreshToken, sessionTransfer.isRequested(by: parameters) { return sessionTransfer }
        return handlers[grantType]
    }

    /// For discovery's `grant_types_supported`.
    var grantTypes: [String] { handlers.keys.map(\.rawValue).sorted() }
}
