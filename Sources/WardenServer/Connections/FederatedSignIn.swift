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
        /// How the person proved the existing account they link to (SPEC §15 `/u/link`): its own second factor is
        /// asked next when it has one, and a password makes the session record `pwd`.
        var accountProof: AccountProof?
        /// The identity to link to ``user`` once every factor is done (SPEC §15 `/u/link`).
        var link: PendingLink?
    }

    /// How `/u/link` proved the existing account.
    enum AccountProof: Sendable {
        case password
        /// A login through one of the account's linked connections.
        case linkedConnection
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
        if login.accountProof != nil {
            let enrolled = try await MFAEnrollments.read(
                userID: login.user.userID, factors: try await secondFactor.store.enabledMFAFactors(),
                store: secondFactor.store)
            requiresMFA = requiresMFA || enrolled.canUsePush || enrolled.canUseCode
        }
        let (session, cookie) = try await flow.sessions.signIn(
            userID: login.user.userID, existing: try await flow.sessions.current(request),
            method: login.accountProof == .password ? SessionManager.passwordMethod : "connection",
            amr: login.accountProof == .password ? [.password] : [])
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
