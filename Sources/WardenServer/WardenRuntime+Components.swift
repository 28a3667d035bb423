import WardenCore
import WardenWebAuthn

/// The composition root of the services the routes share — the token endpoint's grants, the CIBA service,
/// client authentication, access token checks: each takes only the stores and services it uses, handed over
/// here from the runtime's. ``buildRouter(runtime:)`` wires them into the controllers; they never see the
/// runtime.
extension WardenRuntime {
    /// The steps every grant shares (signing, counting, logging), for the grants and `/oauth/revoke`.
    func makeTokenIssuer() -> TokenIssuer {
        TokenIssuer(
            keys: keys, tenant: cache, refreshTokens: store, users: store, eventLog: eventLog, clock: clock,
            issuer: issuer, userinfoAudience: configuration.userinfoAudience)
    }

    /// The revocation list of access tokens by grant.
    var accessTokenRevocation: AccessTokenRevocation {
        AccessTokenRevocation(store: store)
    }

    /// Revocation of a refresh-token family with its access tokens and transferred sessions.
    var refreshTokenFamilyRevocation: RefreshTokenFamilyRevocation {
        RefreshTokenFamilyRevocation(
            refreshTokens: store, accessTokens: accessTokenRevocation, transferredSessions: store, tenant: cache)
    }

    /// Every grant of the token endpoint: adding a grant is one line here.
    func makeGrantRegistry() -> GrantRegistry {
        let issuer = makeTokenIssuer()
        let revocation = refreshTokenFamilyRevocation
        let refresh = RefreshTokenGrant(
            refreshTokens: store, familyRevocation: revocation, issuer: issuer, clock: clock,
            organizations: store)
        let sessionTransfer = { (grantType: GrantType) in
            SessionTransferGrant(
                refresh: refresh, grantType: grantType, transferTokens: self.store,
                ipIntelligence: self.ipIntelligence, clock: self.clock, issuer: self.configuration.issuer)
        }
        return GrantRegistry(
            handlers: [
                ClientCredentialsGrant(tenant: cache, issuer: issuer),
                makeAuthorizationCodeGrant(issuer: issuer),
                refresh,
                CIBAGrant(requests: store, polls: backchannelPolls, issuer: issuer, clock: clock),
                sessionTransfer(.tokenExchange),
                WebAuthnGrant(
                    ceremonies: passkeyCeremonies, accounts: accountService, connections: store, scopes: scopePolicy,
                    issuer: issuer, clock: clock),
            ],
            sessionTransfer: sessionTransfer(.refreshToken))
    }

    /// The `authorization_code` grant: the token endpoint's, and the admin console's (SPEC §14), which redeems its
    /// own codes in process.
    func makeAuthorizationCodeGrant(issuer: TokenIssuer) -> AuthorizationCodeGrantHandler {
        AuthorizationCodeGrantHandler(
            codes: store, familyRevocation: refreshTokenFamilyRevocation, issuer: issuer, clock: clock,
            organizations: cache)
    }

    /// The admin console (SPEC §14) with the pieces it uses.
    func makeConsoleController(federation: FederatedLogin) -> ConsoleController {
        ConsoleController(
            sessions: ConsoleSessions(artefacts: store, clock: clock, secureCookies: !configuration.isPlainHTTP),
            codes: makeAuthorizationCodeGrant(issuer: makeTokenIssuer()), logins: store, users: store, roles: store,
            activity: store, logs: store, keys: keys, signingKeys: store, eventLog: eventLog,
            pendingRequests: store, requestsByConsent: store, backchannel: backchannelService,
            mfaSettings: store, tenant: cache,
            store: store, runtime: self, clock: clock, issuer: issuer,
            trustedProxies: trustedProxies, federation: federation)
    }

    /// The life of a CIBA request: `/bc-authorize`, the approval page and the devices' answers.
    var backchannelService: BackchannelService {
        BackchannelService(
            requests: store, announcements: store, push: push, deliveries: deliveries, polls: backchannelPolls,
            clock: clock)
    }

    /// Client authentication at the token, revocation, introspection and CIBA endpoints. Each call makes a new
    /// authenticator, with its own cache of parsed client keys.
    func makeClientAuthenticator() -> ClientAuthenticator {
        ClientAuthenticator(tenant: cache, assertionIDs: store, clock: clock, issuer: configuration.issuer)
    }

    /// The check of the access tokens this node signed.
    var accessTokenVerifier: AccessTokenVerifier {
        AccessTokenVerifier(keys: keys, issuer: issuer, clock: clock)
    }

    /// Which requested scopes a user-facing grant carries.
    var scopePolicy: ScopePolicy {
        ScopePolicy(tenant: cache, roles: store, organizations: store)
    }

    /// The enrolment tickets of authenticator devices (SPEC §7.1).
    var enrollmentTickets: EnrollmentTickets {
        EnrollmentTickets(store: store, clock: clock)
    }

    /// The SSO sessions of the hosted login.
    var sessionManager: SessionManager {
        SessionManager(store: store, clock: clock, secureCookies: !configuration.isPlainHTTP)
    }

    /// The users' recovery codes (SPEC §12).
    var recoveryCodes: RecoveryCodes {
        RecoveryCodes(store: store, clock: clock)
    }

    /// The second factor of the hosted login (SPEC §12) over `flow`.
    func secondFactor(flow: AuthorizationFlow) -> SecondFactor {
        SecondFactor(
            store: store, flow: flow, tickets: enrollmentTickets, ipIntelligence: ipIntelligence,
            trustedProxies: trustedProxies, eventLog: eventLog, clock: clock, passkeyOffer: passkeyEnrollmentOffer)
    }

    /// Progressive enrolment (SPEC §17).
    var passkeyEnrollmentOffer: PasskeyEnrollmentOffer {
        PasskeyEnrollmentOffer(
            ceremonies: passkeyCeremonies, credentials: store, connections: store, tenant: cache, users: store)
    }

    /// The post-login rules and the embedder's policies, run on every login.
    var postLoginCheck: PostLoginCheck {
        PostLoginCheck(
            rules: store, policies: postLoginPolicies, ipIntelligence: ipIntelligence, trustedProxies: trustedProxies,
            eventLog: eventLog, clock: clock, logger: logger)
    }

    /// Sign-up, e-mail verification, password reset and the password policy (SPEC §15.1).
    var accountService: AccountService {
        AccountService(
            store: store, familyRevocation: refreshTokenFamilyRevocation, deliveries: deliveries,
            limits: accountLimits, tenant: cache, eventLog: eventLog, clock: clock, issuer: issuer,
            bcryptCost: configuration.bcryptCost)
    }

    /// The passkey ceremonies (SPEC §17) of the configured relying party.
    var passkeyCeremonies: PasskeyCeremonies {
        PasskeyCeremonies(
            relyingParty: RelyingParty(
                id: configuration.effectiveWebAuthnRPID,
                origins: [configuration.issuerOrigin] + configuration.webAuthnOrigins),
            artefacts: store, credentials: store, clock: clock)
    }

    /// The steps of the authorization code flow, shared by `/authorize`, the CIBA approval page and logout.
    var authorizationFlow: AuthorizationFlow {
        AuthorizationFlow(
            sessions: sessionManager, transactions: LoginTransactionStore(store: store, clock: clock),
            scopes: scopePolicy, codes: AuthorizationCodeIssuer(codes: store, clock: clock), users: store,
            clock: clock, issuer: issuer,
            admission: OrganizationAdmission(
                store: store, directory: cache, eventLog: eventLog, clock: clock)
        )
    }
}
