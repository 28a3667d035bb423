/// A validated `/authorize` request (RFC 6749 §4.1.1, OIDC Core §3.1.2.1, SPEC §5), kept server-side in a
/// ``LoginTransaction`` while the person signs in.
struct AuthorizationRequest: Codable, Sendable, Equatable {
    /// `response_mode` (OAuth 2.0 Multiple Response Types §2.1, Form Post Response Mode §2).
    enum ResponseMode: String, Codable, Sendable {
        case query
        case formPost = "form_post"
    }

    /// `prompt` values (OIDC Core §3.1.2.1).
    enum Prompt: String, Codable, Sendable, CaseIterable {
        case none, login, consent
    }

    var clientID: String
    /// The `redirect_uri` exactly as sent; the token request must repeat it (RFC 6749 §4.1.3).
    var redirectURI: String
    var responseMode: ResponseMode
    var state: String?
    var nonce: String?
    /// Requested scopes, in order, without duplicates.
    var scope: [String]
    var audience: String?
    /// The S256 `code_challenge` (RFC 7636 §4.3).
    var codeChallenge: String?
    var prompt: Set<Prompt>
    /// `max_age` in seconds (OIDC Core §3.1.2.1).
    var maxAge: Int?
    /// `acr_values`, split on spaces (OIDC Core §3.1.2.1); ``MFARequirement/multiFactorACR`` asks for MFA (SPEC §12).
    var acrValues: [String]? = nil
    /// `connection`: the connection to sign in through (SPEC §15), straight to its upstream.
    var connection: String? = nil
    /// `connection_scope`, comma-separated on the wire: scopes added to the upstream request (SPEC §15).
    var connectionScope: [String]? = nil
    /// `login_hint`, passed on to OIDC upstreams (SPEC §15).
    var loginHint: String? = nil
    /// The organization the login is for, by id, resolved from `organization` (an id or a name, SPEC §19).
    var organization: String? = nil
    /// `invitation`: an organization invitation's ticket (SPEC §19), accepted when the login ends.
    var invitation: String? = nil

    enum CodingKeys: String, CodingKey {
        case clientID = "client_id"
        case redirectURI = "redirect_uri"
        case responseMode = "response_mode"
        case state, nonce, scope, audience
        case codeChallenge = "code_challenge"
        case prompt
        case maxAge = "max_age"
        case acrValues = "acr_values"
        case connection
        case connectionScope = "connection_scope"
        case loginHint = "login_hint"
        case organization, invitation
    }

    /// Where the response goes.
    var responseTarget: AuthorizationResponseTarget {
        AuthorizationResponseTarget(
            redirectURI: Self.droppingFragment(redirectURI), mode: responseMode, state: state)
    }

    /// `uri` without its fragment, which a redirection endpoint never has (RFC 6749 §3.1.2).
    static func droppingFragment(_ uri: String) -> String {
        uri.firstIndex(of: "#").map { String(uri[..<$0]) } ?? uri
    }
}
