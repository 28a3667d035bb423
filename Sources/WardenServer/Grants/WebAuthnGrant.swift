import Foundation
import WardenCore
import WardenWire

/// The native passkey API's exchange (SPEC §17): `grant_type=urn:okta:params:oauth:grant-type:webauthn` with
/// `client_id`, `realm`?, `auth_session` (from `/passkey/register` or `/passkey/challenge`), `authn_response` (the
/// credential as JSON), `scope`, `audience`. A registration makes the account with its passkey; a sign-in finds the
/// account by its passkey. Either way the tokens say `amr: ["phr", "mfa"]` (a user-verified, phishing-resistant key
/// satisfies the MFA policy) and the login is logged `s`; a failed check is `invalid_grant` naming it, logged `f`.
struct WebAuthnGrant: GrantHandler {
    let ceremonies: PasskeyCeremonies
    let accounts: AccountService
    let connections: any ConnectionStore
    let scopes: ScopePolicy
    let issuer: TokenIssuer
    let clock: any WardenClock

    var grantType: GrantType { .webAuthn }
    /// Native apps are public clients.
    var requiresClientAuthentication: Bool { false }
    var failureEvent: LogEventType { .loginFailure }

    func exchange(_ request: TokenRequest) async throws -> TokenResponse {
        let client = request.client.client
        guard try await PasskeyPolicy.current(connections).enabled else { throw PasskeyPolicy.disabled }
        try await PasskeyPolicy.checkRealm(request.parameters["realm"], client: client, connections: connections)
        let session = try request.require("auth_session")
        let answer = try PublicKeyCredentialAnswer(json: try request.require("authn_response"))
        let api = try await ResourceIndicator.userFacingAPI(
            try ResourceIndicator.requested(request.parameters), in: issuer.tenant)
        let pending = try await ceremonies.consume(session, clientID: client.clientID)
        let user: User
        switch pending.ceremony {
        case .registration:
            guard let signUp = pending.signUp else {
                throw OAuthError(.invalidGrant, "The auth_session has no sign-up")
            }
            let credential = try ceremonies.register(
                answer, pending: pending, userID: signUp.userID, userAgent: request.userAgent)
            user = try await accounts.finishPasskeySignUp(
                signUp, credential: credential,
                caller: .init(
                    clientID: client.clientID, clientName: client.name, ip: request.ip, userAgent: request.userAgent))
        case .authentication:
            let credential = try await ceremonies.authenticate(answer, pending: pending)
            guard let record = try await accounts.store.user(id: credential.userID), !record.user.blocked else {
                throw OAuthError(.invalidGrant, "The user is blocked")
            }
            user = record.user
        }
        let requested = (request.parameters["scope"] ?? "openid").split(separator: " ").map(String.init)
        let scope = try await scopes.grantedScopes(requested, audience: api?.identifier, userID: user.userID)
        let response = try await issuer.userTokens(
            .init(
                client: client, user: user, scope: scope, audience: api?.identifier, authorizationDetails: nil,
                sessionID: nil, authTime: clock.now(), nonce: nil, familyID: RandomToken.make(bytes: 16),
                amr: [.phishingResistant, .multiFactor]),
            refreshToken: .whenOffered)
        issuer.log(
            .loginSuccess, request: request, clientID: client.clientID, description: "Successful login with a passkey",
            audience: api?.identifier, scope: scope.joined(separator: " "), userID: user.userID)
        return response
    }
}
