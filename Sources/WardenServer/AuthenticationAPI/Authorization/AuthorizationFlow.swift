import Foundation
import Hummingbird
import WardenCore
import WardenWire

/// The steps of the authorization code flow once a request is validated (SPEC §5): decide whether the SSO
/// session may answer it, send the person to the login form, ask a third-party client's consent, and
/// answer with a code.
struct AuthorizationFlow: Sendable {
    let sessions: SessionManager
    let transactions: LoginTransactionStore
    let scopes: ScopePolicy
    let codes: AuthorizationCodeIssuer
    /// Where the user of a session is read.
    let users: any UserStore
    let clock: any WardenClock
    /// The issuer's path with a trailing slash, under which the hosted pages are served.
    let basePath: String
    /// Whether a login for an organization may end (SPEC §19).
    let admission: OrganizationAdmission

    /// The flow over the SSO sessions of `sessions` and the login transactions of `transactions`, granting
    /// per `scopes` and answering with the codes of `codes`; `issuer` (`{issuer}`) gives the hosted pages' path.
    init(
        sessions: SessionManager, transactions: LoginTransactionStore, scopes: ScopePolicy,
        codes: AuthorizationCodeIssuer, users: any UserStore, clock: any WardenClock, issuer: String,
        admission: OrganizationAdmission
    ) {
        self.admission = admission
        self.sessions = sessions
        self.transactions = transactions
        self.scopes = scopes
        self.codes = codes
        self.users = users
        self.clock = clock
        let path = URLComponents(string: issuer)?.path ?? "/"
        self.basePath = path.hasSuffix("/") ? path : path + "/"
    }

    var loginPath: String { basePath + "u/login" }
    var consentPath: String { basePath + "u/consent" }
    var signupPath: String { basePath + "u/signup" }
    var resetPath: String { basePath + "u/reset-password" }
    var organizationPath: String { basePath + "u/organization" }

    /// Whether `session` answers `request` without a new login: not with `prompt=login`, and not when the
    /// last login is older than `max_age` (OIDC Core §3.1.2.1).
    func isSatisfied(_ request: AuthorizationRequest, by session: Session) -> Bool {
        guard !request.prompt.contains(.login) else { return false }
        guard let maxAge = request.maxAge else { return true }
        return clock.now().timeIntervalSince(session.authTime) <= Double(maxAge)
    }

    /// The user of an SSO session, if they may still sign in.
    func activeUser(of session: Session) async throws -> User? {
        guard let record = try await users.user(id: session.userID), !record.user.blocked else { return nil }
        return record.user
    }

    /// Parks `request` in a login transaction and redirects to the login form (SPEC §5), or to the sign-up form
    /// for `screen_hint=signup` (SPEC §15.1) and for an organization's invitation (SPEC §19: the invitee signs up,
    /// or follows the page's link to sign in).
    func startLogin(_ request: AuthorizationRequest, signUp: Bool = false) async throws -> Response {
        let id = try await transactions.start(LoginTransaction(request: request), stage: .login)
        let page = signUp || request.invitation != nil ? signupPath : loginPath
        return Response(status: .found, headers: [.location: page + "?state=" + id, .cacheControl: "no-store"])
    }

    /// Whether `request` of `client` must first ask for the organization (SPEC §19 `pre_login_prompt`).
    func needsOrganizationPrompt(_ request: AuthorizationRequest, client: Client) -> Bool {
        request.organization == nil && client.organizationUsage == .require
            && client.organizationRequireBehavior == .preLoginPrompt
    }

    /// Parks `request` until the person names their organization, and redirects to `/u/organization`.
    func startOrganizationPrompt(_ request: AuthorizationRequest) async throws -> Response {
        let id = try await transactions.start(LoginTransaction(request: request), stage: .organizationPrompt)
        return Response(
            status: .found, headers: [.location: organizationPath + "?state=" + id, .cacheControl: "no-store"])
    }

    /// The login form of transaction `id`, with its CSRF cookie and the other sign-in methods of `options`.
    func loginPage(
        id: String, transaction: LoginTransaction, client: Client, email: String = "", message: String? = nil,
        options: LoginPage.LoginOptions = LoginPage.LoginOptions()
    ) -> Response {
        let page = LoginPage(
            clientName: client.name, formAction: loginPath, state: id, csrf: transaction.csrf, email: email,
            message: message, options: options, signupURL: options.signup ? signupPath + "?state=" + id : nil,
            resetURL: options.password ? resetPath + "?state=" + id : nil,
            passkeyOptionsURL: basePath + "u/passkey/options", branding: options.branding)
        return withCSRFCookie(PageRenderer.shared.response(page), token: transaction.csrf)
    }

    /// After authentication: the organization — picked by the user when the client asks for one after login
    /// (SPEC §19 `post_login_prompt`) — and its admission (a refusal is the error redirect), then the consent page
    /// for a third-party client (or `prompt=consent`), else the code.
    func complete(
        _ request: AuthorizationRequest, client: Client, session: Session, user: User
    ) async throws -> Response {
        var request = request
        let organization: Organization?
        do {
            if request.organization == nil, client.organizationUsage == .require,
                client.organizationRequireBehavior == .postLoginPrompt
            {
                let theirs = try await admission.organizations(of: user)
                guard theirs.count <= 1 else {
                    return try await organizationPick(theirs, request: request, client: client, session: session)
                }
                guard let only = theirs.first else {
                    throw OAuthError(.accessDenied, "User \(user.userID) is not a member of any organization")
                }
                request.organization = only.id
            }
            organization = try await admission.admit(user, for: request)
        } catch let refusal as OAuthError {
            return request.responseTarget.response(refusal)
        }
        let granted = session.grantable(
            try await scopes.grantedScopes(
                request.scope, audience: request.audience, userID: user.userID, organizationID: organization?.id),
            to: client)
        guard !client.isFirstParty || request.prompt.contains(.consent) else {
            return try await respondWithCode(request, session: session, scope: granted)
        }
        guard !request.prompt.contains(.none) else {
            return request.responseTarget.response(
                OAuthError("consent_required", "The application needs the user's consent"))
        }
        let transaction = LoginTransaction(request: request, sessionID: session.id, grantedScope: granted)
        let id = try await transactions.start(transaction, stage: .consent)
        let page = ConsentPage(
            clientName: DisplayText.clean(client.name), email: user.email ?? user.userID,
            scopes: try await scopes.descriptions(of: granted, audience: request.audience), formAction: consentPath,
            state: id, csrf: transaction.csrf,
            unverified: client.registration.map { .init(host: $0.clientHost.map(DisplayText.clean)) })
        return withCSRFCookie(PageRenderer.shared.response(page), token: transaction.csrf)
    }

    /// The organization picker of `post_login_prompt`: `request` parked (with the session that will receive the
    /// code) until the user picks one of `organizations`.
    private func organizationPick(
        _ organizations: [Organization], request: AuthorizationRequest, client: Client, session: Session
    ) async throws -> Response {
        let transaction = LoginTransaction(request: request, sessionID: session.id)
        let id = try await transactions.start(transaction, stage: .organizationPick)
        let page = OrganizationPickPage(
            clientName: DisplayText.clean(client.name), formAction: organizationPath + "/pick", state: id,
            csrf: transaction.csrf,
            organizations: organizations.map { .init(id: $0.id, label: DisplayText.clean($0.shownName)) })
        return withCSRFCookie(PageRenderer.shared.response(page), token: transaction.csrf)
    }

    /// Issues a code for `session` and sends it to the client (RFC 6749 §4.1.2).
    func respondWithCode(_ request: AuthorizationRequest, session: Session, scope: [String]) async throws -> Response {
        let code = try await codes.issue(for: request, session: session, scope: scope)
        return request.responseTarget.response([(name: "code", value: code)])
    }

    /// `response` with the CSRF cookie of the hosted pages' forms (`{base}u/`).
    func withCSRFCookie(_ response: Response, token: String) -> Response {
        var response = response
        response.setCookie(CSRFCookie.make(token: token, path: basePath + "u/", secure: sessions.secureCookies))
        return response
    }
}
