import Foundation
import Hummingbird
import WardenCore
import WardenWire

/// How a login through a connection ends, once the person it proves is known (SPEC §15 "Sign-in"): the
/// post-login rules with the connection's fields, the SSO session, the upstream's ID token kept for a federated
/// logout, then the second factor (SPEC §12), as a password login does. Shared by the upstream callback and the
/// account-linking page; SAML's assertion consumer (SPEC §16) is meant to end its logins here too.
struct FederatedSignIn: Sendable {
    let flow: AuthorizationFlow
    let postLogin: PostLoginCheck
    let secondFactor: SecondFactor
    let upstreamSessions: UpstreamSessions

    /// One login to finish.
    struct Login: Sendable {
        var user: User
        var client: Client
        var authorization: AuthorizationRequest
        var connection: Connection
        /// The upstream's own id of the person (logged as `details.identity_user_id`).
        var identityUserID: String
        /// The upstream's ID token, for `/oidc/logout?federated`.
        var upstreamIDToken: String?
        /// The account's password was checked too (linking): the session records `pwd` and the account's own
        /// second factor is asked when it has one.
        var provedPassword = false
        /// The identity to link to ``user`` once every factor is done (SPEC §15 `/u/link`).
        var link: PendingLink?
    }

    func finish(_ login: Login, request: Request, context: WardenRequestContext) async throws -> Response {
        var requiresMFA: Bool
        switch try await postLogin.check(
            login.user, client: login.client, answering: login.authorization, request: request, context: context,
            connection: login.connection)
        {
        case .refused(let response): return response
        case .allowed(let required): requiresMFA = required
        }
        if login.provedPassword {
            let enrolled = try await MFAEnrollments.read(
                userID: login.user.userID, factors: try await secondFactor.store.enabledMFAFactors(),
                store: secondFactor.store)
            requiresMFA = requiresMFA || enrolled.canUsePush || enrolled.canUseCode
        }
        let (session, cookie) = try await flow.sessions.signIn(
            userID: login.user.userID, existing: try await flow.sessions.current(request),
            method: login.provedPassword ? SessionManager.passwordMethod : "connection",
            amr: login.provedPassword ? [.password] : [])
        if let idToken = login.upstreamIDToken,
            let endpoint = login.connection.options["oidc_metadata"]?["end_session_endpoint"]?.stringValue
        {
            try await upstreamSessions.record(
                .init(connectionID: login.connection.id, endSessionEndpoint: endpoint, idToken: idToken), for: session)
        }
        let second = SecondFactor.Login(
            user: login.user, client: login.client, authorization: login.authorization, returnPath: nil,
            session: session, firstFactor: .credentials, ruleRequiresMFA: requiresMFA, recordsLogin: true,
            connection: SecondFactor.LoginConnection(login.connection, identityUserID: login.identityUserID),
            link: login.link)
        return try await secondFactor.proceed(
            second, cookies: cookie.map { [$0] } ?? [], request: request, context: context)
    }
}
