public import Foundation
import WardenWire

extension WardenClient {
    /// The parameters an ``authorizationRequest(redirectURI:scope:audience:additionalParameters:)`` sets itself;
    /// `additionalParameters` cannot replace them.
    static let reservedAuthorizationParameters: Set<String> = [
        "response_type", "client_id", "redirect_uri", "scope", "state", "nonce", "code_challenge",
        "code_challenge_method", "audience",
    ]

    /// Builds an authorization request (RFC 6749 §4.1.1) with PKCE S256 (RFC 7636 §4.2), a fresh `state` and
    /// `nonce` (OpenID Connect Core §3.1.2.1): 256 random bits each.
    ///
    /// - Parameters:
    ///   - redirectURI: A callback registered on the client.
    ///   - scope: The scopes, e.g. `["openid", "profile", "offline_access"]`.
    ///   - audience: The API the access token is for (SPEC §5); without it the token is for `/userinfo` only.
    ///   - additionalParameters: Other `/authorize` parameters, e.g. `prompt`, `max_age`, `login_hint`.
    public func authorizationRequest(
        redirectURI: URL, scope: [String], audience: String? = nil, additionalParameters: [String: String] = [:]
    ) -> AuthorizationRequest {
        let state = RandomToken.make()
        let nonce = RandomToken.make()
        let verifier = RandomToken.make()
        var fields: [(String, String)] = [
            ("response_type", "code"), ("client_id", configuration.clientID),
            ("redirect_uri", redirectURI.absoluteString), ("scope", scope.joined(separator: " ")), ("state", state),
            ("nonce", nonce), ("code_challenge", SecretHash.sha256Base64URL(verifier)),
            ("code_challenge_method", CodeChallenge.s256),
        ]
        if let audience { fields.append(("audience", audience)) }
        fields += additionalParameters.filter { !Self.reservedAuthorizationParameters.contains($0.key) }
            .sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        return AuthorizationRequest(
            url: FormEncoding.url(configuration.metadata.authorizationEndpoint, adding: fields), state: state,
            nonce: nonce, codeVerifier: verifier, redirectURI: redirectURI)
    }

    /// The authorization code in the callback URL `callback` (RFC 6749 §4.1.2).
    ///
    /// Throws `state_mismatch` unless the callback returns the request's `state` (RFC 6749 §10.12), the
    /// server's `error`/`error_description` when it carries an error response (§4.1.2.1), and
    /// `invalid_callback` when it is not a response to `request` (another redirect URI, or no code).
    public func authorizationCode(from callback: URL, for request: AuthorizationRequest) throws -> String {
        guard let components = URLComponents(url: callback, resolvingAgainstBaseURL: false),
            let expected = URLComponents(url: request.redirectURI, resolvingAgainstBaseURL: false),
            components.scheme == expected.scheme, components.host == expected.host, components.port == expected.port,
            components.path == expected.path
        else {
            throw WardenClientError(
                error: "invalid_callback", errorDescription: "the callback is not the request's redirect_uri")
        }
        var parameters: [String: String] = [:]
        for item in components.queryItems ?? [] where parameters[item.name] == nil {
            parameters[item.name] = item.value ?? ""
        }
        guard let state = parameters["state"], SecretHash.constantTimeEquals(state, request.state) else {
            throw WardenClientError(
                error: "state_mismatch", errorDescription: "the callback's state is not the request's")
        }
        if let error = parameters["error"] {
            throw WardenClientError(error: error, errorDescription: parameters["error_description"])
        }
        guard let code = parameters["code"], !code.isEmpty else {
            throw WardenClientError(error: "invalid_callback", errorDescription: "the callback carries no code")
        }
        return code
    }

    /// Redeems `code` at the token endpoint with the request's PKCE verifier (RFC 6749 §4.1.3, RFC 7636 §4.5,
    /// SPEC §5). An ID token in the answer is validated against the request's `nonce` before it is returned
    /// (OpenID Connect Core §3.1.3.7).
    public func exchangeCode(_ code: String, for request: AuthorizationRequest) async throws -> TokenResponse {
        try await tokenRequest(
            [
                ("grant_type", "authorization_code"), ("code", code),
                ("redirect_uri", request.redirectURI.absoluteString), ("code_verifier", request.codeVerifier),
            ], nonce: request.nonce)
    }
}
