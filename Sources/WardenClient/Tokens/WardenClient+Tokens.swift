import Foundation
public import WardenWire

extension WardenClient {
    /// Uses `refreshToken` for new tokens (RFC 6749 §6, SPEC §5); `scope` may narrow the grant, never widen it
    /// (`invalid_scope`). A rotating client gets a new refresh token each time; an ID token in the answer is
    /// validated (OpenID Connect Core §12.2).
    public func refresh(refreshToken: String, scope: [String]? = nil) async throws -> TokenResponse {
        var fields = [("grant_type", "refresh_token"), ("refresh_token", refreshToken)]
        if let scope { fields.append(("scope", scope.joined(separator: " "))) }
        return try await tokenRequest(fields, nonce: nil)
    }

    /// Gets a token for the client itself (`client_credentials`, RFC 6749 §4.4, SPEC §5): a confidential client,
    /// an `audience` it has a client grant for, and optionally a subset of the granted scopes (`invalid_scope`
    /// beyond them, 403 `access_denied` without a grant).
    public func clientCredentials(audience: String, scope: [String]? = nil) async throws -> TokenResponse {
        var fields = [("grant_type", "client_credentials"), ("audience", audience)]
        if let scope { fields.append(("scope", scope.joined(separator: " "))) }
        return try await tokenRequest(fields, nonce: nil)
    }

    /// Trades a native app's refresh token for a session transfer token (SPEC §8) in the reference SDK's form:
    /// `grant_type=refresh_token` with `audience=urn:{issuer host}:session_transfer`. The client must be
    /// allowed to create session transfer tokens (`unauthorized_client`); a bad refresh token is `invalid_grant`.
    public func sessionTransfer(refreshToken: String) async throws -> SessionTransferToken {
        let response = try await postForm(
            configuration.metadata.tokenEndpoint,
            [
                ("grant_type", "refresh_token"), ("refresh_token", refreshToken),
                ("audience", "urn:\(configuration.issuer.host ?? ""):session_transfer"),
            ])
        let answer = try Self.decodeSuccess(SessionTransferAnswer.self, from: response)
        return SessionTransferToken(
            token: answer.accessToken, expiresIn: answer.expiresIn, idToken: answer.idToken,
            refreshToken: answer.refreshToken)
    }

    /// The user's claims from `/userinfo` (OpenID Connect Core §5.3, SPEC §3) for an access token whose
    /// audience includes `{issuer}userinfo`. A missing or bad token is `invalid_token` (401).
    public func userInfo(accessToken: String) async throws -> [String: JSONValue] {
        guard let endpoint = configuration.metadata.userinfoEndpoint else {
            throw WardenClientError.invalidResponse("the provider has no userinfo_endpoint")
        }
        let request = HTTPRequest(
            method: "GET", url: endpoint,
            headers: [("Authorization", "Bearer " + accessToken), ("Accept", "application/json")])
        return try Self.decodeSuccess([String: JSONValue].self, from: try await Self.send(request, transport))
    }

    /// POSTs a token request and decodes the answer; an ID token in it is validated with `nonce`.
    func tokenRequest(_ fields: [(String, String)], nonce: String?) async throws -> TokenResponse {
        let response = try await postForm(configuration.metadata.tokenEndpoint, fields)
        return try await validatedTokens(response, nonce: nonce)
    }

    /// The tokens of a successful token response, its ID token validated.
    func validatedTokens(_ response: HTTPResponse, nonce: String?) async throws -> TokenResponse {
        let tokens = try Self.decodeSuccess(TokenResponse.self, from: response)
        if let idToken = tokens.idToken { _ = try await validateIDToken(idToken, nonce: nonce) }
        return tokens
    }
}

/// The session transfer exchange's answer (RFC 8693 §2.2.1, SPEC §8).
private struct SessionTransferAnswer: Decodable {
    var accessToken: String
    var expiresIn: Int
    var idToken: String?
    var refreshToken: String?

    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case expiresIn = "expires_in"
        case idToken = "id_token"
        case refreshToken = "refresh_token"
    }
}
