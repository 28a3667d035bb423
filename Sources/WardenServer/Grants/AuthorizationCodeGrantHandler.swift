import Foundation
import WardenCore
import WardenWire

/// `authorization_code` (RFC 6749 §4.1.3) with PKCE (RFC 7636 §4.5) per SPEC §5: redeems the single-use code
/// that `/authorize` stored as an ``AuthorizationCodeGrant`` and issues the user's tokens (SPEC §3).
///
/// Every mismatch — unknown, expired or replayed code, another client, another `redirect_uri`, a wrong
/// verifier — is `invalid_grant`; a missing or malformed `code_verifier` is `invalid_request`. A replayed
/// code also revokes the refresh tokens its first exchange issued (RFC 6749 §4.1.2).
struct AuthorizationCodeGrantHandler: GrantHandler {
    /// Where `/authorize` stored the codes, as artefacts.
    let codes: any ArtefactStore
    /// Revokes the refresh tokens of a replayed code's first exchange.
    let familyRevocation: RefreshTokenFamilyRevocation
    let issuer: TokenIssuer
    let clock: any WardenClock
    /// The organizations codes name (SPEC §19 `org_id`, `org_name`).
    let organizations: any OrganizationDirectory
    var grantType: GrantType { .authorizationCode }
    /// Public clients redeem codes with `client_id` and their PKCE verifier (RFC 7636 §1).
    var requiresClientAuthentication: Bool { false }
    var failureEvent: LogEventType { .codeExchangeFailed }

    /// A handler redeeming the codes of `codes`, revoking through `familyRevocation` on replay and issuing
    /// through `issuer`.
    init(
        codes: any ArtefactStore, familyRevocation: RefreshTokenFamilyRevocation, issuer: TokenIssuer,
        clock: any WardenClock, organizations: any OrganizationDirectory
    ) {
        self.organizations = organizations
        self.codes = codes
        self.familyRevocation = familyRevocation
        self.issuer = issuer
        self.clock = clock
    }

    func exchange(_ request: TokenRequest) async throws -> TokenResponse {
        let client = request.client.client
        let code = try request.require("code")
        let redirectURI = try request.require("redirect_uri")
        let verifier = request.parameters["code_verifier"]
        if let verifier, !CodeChallenge.isWellFormed(verifier: verifier) {
            throw OAuthError.invalidRequest("code_verifier must be 43-128 characters of [A-Za-z0-9-._~]")
        }
        if client.isPublic, verifier == nil {
            throw OAuthError.invalidRequest("Missing required parameter: code_verifier")
        }
        let grant = try await redeem(code)
        guard grant.clientID == client.clientID else {
            throw OAuthError(.invalidGrant, "The code was issued to another client")
        }
        guard grant.redirectURI == redirectURI else {
            throw OAuthError(.invalidGrant, "redirect_uri does not match the authorization request")
        }
        try checkProofKey(challenge: grant.codeChallenge, verifier: verifier, publicClient: client.isPublic)
        let user = try await issuer.activeUser(id: grant.userID)
        var organization: Organization?
        if let id = grant.organizationID {
            organization = try await organizations.organization(id: id)
            guard organization != nil else { throw OAuthError(.invalidGrant, "The organization no longer exists") }
        }
        let response = try await issuer.userTokens(
            .init(
                client: client, user: user, scope: grant.scope, audience: grant.audience, sessionID: grant.sessionID,
                authTime: grant.authTime, nonce: grant.nonce, familyID: grant.familyID, amr: grant.amr ?? [],
                organization: organization),
            refreshToken: .whenOffered)
        issuer.count(.authorizationCode)
        issuer.log(
            .codeExchangeSucceeded, request: request, clientID: client.clientID, audience: grant.audience,
            scope: grant.scope.joined(separator: " "), userID: grant.userID)
        return response
    }

    /// Consumes the code atomically (SPEC §5: single-use, 60 s). A replay revokes the refresh-token family of
    /// the first exchange before it is refused.
    private func redeem(_ code: String) async throws -> AuthorizationCodeGrant {
        let now = clock.now()
        switch try await codes.consumeArtefact(
            kind: AuthorizationCodeGrant.artefactKind, hash: SecretHash.sha256Hex(code), now: now)
        {
        case .consumed(let payload):
            return try decode(payload)
        case .alreadyConsumed(let payload):
            let first = try decode(payload)
            _ = try await familyRevocation.revoke(
                family: first.familyID, of: first.clientID, at: now)
            throw OAuthError(.invalidGrant, "The authorization code was already used")
        case .expired:
            throw OAuthError(.invalidGrant, "The authorization code has expired")
        case .notFound:
            throw OAuthError(.invalidGrant, "Invalid authorization code")
        }
    }

    private func decode(_ payload: String) throws -> AuthorizationCodeGrant {
        do {
            return try JSONDecoder().decode(AuthorizationCodeGrant.self, from: Data(payload.utf8))
        } catch {
            throw OAuthError.serverError(debug: "unreadable authorization code payload: \(error)")
        }
    }

    /// RFC 7636 §4.6: a code bound to a challenge needs the matching verifier; a verifier for a code without a
    /// challenge is refused (a downgrade, OAuth 2.1 §4.1.3), and so is a public client's code without PKCE.
    private func checkProofKey(challenge: String?, verifier: String?, publicClient: Bool) throws(OAuthError) {
        guard let challenge else {
            guard verifier == nil, !publicClient else {
                throw OAuthError(.invalidGrant, "The authorization request did not use PKCE")
            }
            return
        }
        guard let verifier else { throw .invalidRequest("Missing required parameter: code_verifier") }
        guard CodeChallenge.verify(verifier: verifier, challenge: challenge) else {
            throw OAuthError(.invalidGrant, "Failed to verify code_verifier")
        }
    }
}
