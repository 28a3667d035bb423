public import Foundation

/// An authorization request of the code flow with PKCE (RFC 6749 §4.1.1, RFC 7636 §4, SPEC §5), with the
/// secrets the client keeps until the callback: open ``url`` in the user's browser, keep the value, and pass it
/// to ``WardenClient/authorizationCode(from:for:)`` and ``WardenClient/exchangeCode(_:for:)``.
public struct AuthorizationRequest: Sendable {
    /// The `/authorize` URL to open.
    public let url: URL
    /// The `state` sent (RFC 6749 §10.12); the callback must return it.
    public let state: String
    /// The `nonce` sent (OpenID Connect Core §3.1.2.1); the ID token must carry it.
    public let nonce: String
    /// The PKCE verifier (RFC 7636 §4.1): 43 base64url characters, 256 random bits. Never leaves the app
    /// except in the code exchange.
    public let codeVerifier: String
    /// The `redirect_uri` sent; the code exchange repeats it.
    public let redirectURI: URL

    /// Creates a request from its parts (e.g. restored after the app was relaunched).
    public init(url: URL, state: String, nonce: String, codeVerifier: String, redirectURI: URL) {
        self.url = url
        self.state = state
        self.nonce = nonce
        self.codeVerifier = codeVerifier
        self.redirectURI = redirectURI
    }
}
