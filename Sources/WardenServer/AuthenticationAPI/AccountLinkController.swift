import Foundation
import Hummingbird
import WardenCore
import WardenWire

/// `GET|POST /u/link` (SPEC §15 "Linking"): a first login through a connection brought a verified e-mail that
/// an existing account has verified too. Warden never merges them on its own: the person either proves the
/// existing account — its password ("Link accounts"; a wrong one shows the form again, links nothing and counts
/// toward the lockout of §11) or a login through one of its linked connections, then its second factor when it
/// has one — and the new identity joins it, or chooses "Continue with a new account". The form is bound to the
/// browser that came back from the upstream: the callback set the CSRF cookie the post must carry, so a link page
/// sent to someone else links nothing.
struct AccountLinkController: Sendable {
    let flow: AuthorizationFlow
    let federation: FederatedLogin
    let signIn: FederatedSignIn
    let passwords: PasswordAuthenticator
    let tenant: TenantCache
    let database: any WardenStore
    let trustedProxies: [CIDR]

    func addRoutes(to router: Router<WardenRequestContext>) {
        router.get("u/link") { request, context in
            await HostedPages.respond(context, store: database) { try await show(request) }
        }
        router.post("u/link") { request, context in
            await HostedPages.respond(context, store: database) { try await answer(request, context: context) }
        }
    }

    /// A link transaction and what it names.
    private struct Pending {
        var id: String
        var transaction: LoginTransaction
        var link: PendingLink
        var client: Client
        var connection: Connection
        var account: UserRecord
        /// The account's linked connections that can prove it, other than the one being linked.
        var proofConnections: [Connection]
    }

    private func pending(_ id: String?) async throws -> Pending {
        guard let id, let transaction = try await flow.transactions.peek(id, stage: .link),
            let link = transaction.link, let client = try await tenant.client(id: transaction.clientID)?.client,
            let connection = try await database.connection(id: link.connectionID),
            let account = try await database.user(id: link.userID)
        else { throw ErrorPage.expiredTransaction }
        var proofConnections: [Connection] = []
        for linked in try await database.identities(ofUsers: [account.user.userID])[account.user.userID] ?? []
        where linked.connectionID != connection.id
            && !proofConnections.contains(where: { $0.id == linked.connectionID })
        {
            if let linkedConnection = try await database.connection(id: linked.connectionID),
                !linkedConnection.isDatabase
            {
                proofConnections.append(linkedConnection)
            }
        }
        return Pending(
            id: id, transaction: transaction, link: link, client: client, connection: connection, account: account,
            proofConnections: proofConnections)
    }

    private func show(_ request: Request) async throws -> Response {
        page(try await pending(QueryParameters(request.uri.query)?["state"]), message: nil)
    }

    private func page(_ pending: Pending, message: String?) -> Response {
        PageRenderer.shared.response(
            AccountLinkPage(
                formAction: flow.basePath + "u/link", state: pending.id, csrf: pending.transaction.csrf,
                email: pending.account.user.email ?? "", connection: pending.connection.displayName,
                clientName: pending.client.name, hasPassword: pending.account.passwordHash != nil,
                proofConnections: pending.proofConnections.map {
                    AccountLinkPage.ProofConnection(name: $0.name, label: $0.displayName)
                }, message: message))
    }

    private func answer(_ request: Request, context: WardenRequestContext) async throws -> Response {
        let form = try await HostedPages.readForm(request)
        let pending = try await pending(form["state"])
        guard CSRFCookie.isValid(field: form["csrf"], request: request, expected: pending.transaction.csrf) else {
            throw ErrorPage.unverifiedForm
        }
        guard let authorization = pending.transaction.request,
            let identity = pending.link.identity(of: pending.connection)
        else { throw ErrorPage.expiredTransaction }
        if let action = form["action"], action.hasPrefix("connection:") {
            let name = action.dropFirst("connection:".count)
            guard let proof = pending.proofConnections.first(where: { $0.name == name }) else {
                return page(pending, message: "That connection is not linked to the existing account.")
            }
            return try await federation.start(
                authorization, transactionID: pending.id, connection: proof, request: request, purpose: .linkProof)
        }
        var login = Self.login(pending, authorization: authorization, identity: identity)
        if form["action"] == "link" {
            let attempt = PasswordAuthenticator.Attempt(
                email: pending.account.user.email ?? "", password: form["password"] ?? "", client: pending.client,
                ip: ClientAddress.ip(of: request, context: context, trusted: trustedProxies),
                userAgent: request.headers[.userAgent])
            if case .refused(let message) = try await passwords.authenticate(attempt) {
                return page(pending, message: message)
            }
            login.accountProof = .password
            login.link = pending.link
        } else {
            login.user = try await federation.newUser(
                identity, attributes: FederatedProfile(profileData: identity.profileData).rootAttributes)
        }
        guard try await flow.transactions.consume(pending.id, stage: .link) != nil else {
            throw ErrorPage.expiredTransaction
        }
        return try await signIn.finish(login, request: request, context: context)
    }

    private static func login(_ pending: Pending, authorization: AuthorizationRequest, identity: UserIdentity)
        -> FederatedSignIn.Login
    {
        FederatedSignIn.Login(
            user: pending.account.user, client: pending.client, authorization: authorization,
            connection: pending.connection, identityUserID: identity.identity.userID.description,
            upstreamIDToken: pending.link.upstreamIDToken)
    }

    /// The callback of a proof through one of the account's linked connections (`state.purpose` `link_proof`):
    /// when the upstream signed in an identity of the existing account, the pending identity is linked after the
    /// account's second factor, as with its password; any other answer — a refusal, someone else's identity —
    /// shows the page again, links nothing, and leaves the person free to try again or continue with a new account.
    func proof(_ fields: [String: String], state: UpstreamLoginState, request: Request, context: WardenRequestContext)
        async throws -> Response
    {
        let pending = try await pending(state.transactionID)
        guard let proof = pending.proofConnections.first(where: { $0.id == state.connectionID }),
            let authorization = pending.transaction.request,
            let identity = pending.link.identity(of: pending.connection)
        else { throw ErrorPage.expiredTransaction }
        let proved: UpstreamUserProfile
        do {
            proved = try await federation.upstream(for: proof).identity(from: fields, state: state)
        } catch let failure as UpstreamFailure {
            return page(pending, message: "\(proof.displayName) did not sign you in (\(failure.description)).")
        }
        let owner = try await database.user(connectionID: proof.id, identityUserID: proved.userID.description)
        guard owner?.user.userID == pending.account.user.userID else {
            return page(
                pending,
                message:
                    "That \(proof.displayName) account is not the one linked to \(pending.account.user.email ?? "it"). "
                    + "Nothing was linked.")
        }
        guard try await flow.transactions.consume(pending.id, stage: .link) != nil else {
            throw ErrorPage.expiredTransaction
        }
        var login = Self.login(pending, authorization: authorization, identity: identity)
        login.accountProof = .linkedConnection
        login.link = pending.link
        return try await signIn.finish(login, request: request, context: context)
    }
}

/// The `/u/link` page (SPEC §15 "Linking"): the existing account's address, its password and "Link accounts" (when
/// it has one), a button for each of its linked connections, and "Continue with a new account".
struct AccountLinkPage: Page {
    static let template = "link"
    static let source = """
        {{<layout}}{{$content}}{{#page}}
        <p>You signed in with <strong>{{connection}}</strong> as <strong>{{email}}</strong>. An account with this
        e-mail address already exists.</p>
        <p>To use {{connection}} to sign in to that account from now on, prove it is yours: {{#hasPassword}}enter its
        password{{#proofConnections.0}}, or {{/proofConnections.0}}{{/hasPassword}}{{#proofConnections.0}}sign in
        with a service already linked to it{{/proofConnections.0}}. Otherwise continue with a separate, new account
        for <strong>{{clientName}}</strong>.</p>
        {{#message}}<p class="message" role="alert">{{message}}</p>{{/message}}
        <form method="post" action="{{formAction}}">
        <input type="hidden" name="state" value="{{state}}">
        <input type="hidden" name="csrf" value="{{csrf}}">
        {{#hasPassword}}
        <input type="hidden" name="username" value="{{email}}" autocomplete="username">
        <label for="password">Password of the existing account</label>
        <input id="password" name="password" type="password" autocomplete="current-password">
        <button type="submit" name="action" value="link">Link accounts</button>
        {{/hasPassword}}
        {{#proofConnections}}
        <button type="submit" name="action" value="connection:{{name}}" class="secondary">Link by signing in with
        {{label}}</button>
        {{/proofConnections}}
        <button type="submit" name="action" value="new" class="secondary">Continue with a new account</button>
        </form>
        {{/page}}{{/content}}{{/layout}}
        """
    let title = "Link your accounts"
    var formAction: String
    var state: String
    var csrf: String
    var email: String
    /// The connection's `display_name`.
    var connection: String
    var clientName: String
    /// Whether the account has a password to prove it with.
    var hasPassword: Bool
    /// The account's linked connections that can prove it.
    var proofConnections: [ProofConnection]
    /// Why the proof was refused.
    var message: String?

    /// A linked connection's button: its `name` (posted) and `display_name`.
    struct ProofConnection: Sendable {
        var name: String
        var label: String
    }
}
