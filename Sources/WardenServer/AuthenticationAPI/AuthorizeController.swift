import Foundation
import HTTPTypes
import Hummingbird
import Logging
import WardenCore
import WardenWire

/// The front channel of the authorization code flow with PKCE (RFC 6749 §4.1, RFC 7636, SPEC §5):
/// `GET /authorize`, the hosted login form (`GET`/`POST /u/login`) and the consent form (`POST /u/consent`).
/// Every answer is a redirect to the verified redirect URI or an HTML page; never JSON.
struct AuthorizeController: Sendable {
    let validator: AuthorizationRequestValidator
    let flow: AuthorizationFlow
    let passwords: PasswordAuthenticator
    /// The passkey sign-in of the login page (SPEC §17).
    let passkeys: PasskeyAuthenticator
    let postLogin: PostLoginCheck
    /// Asks for a second factor when SPEC §12 says so, then ends the login.
    let secondFactor: SecondFactor
    let sessionTransfer: SessionTransferConsumer
    /// Logins through other connections (SPEC §15): `connection=` sends the person to its upstream.
    let federation: FederatedLogin
    /// Sign-up (SPEC §15.1): `/u/signup` continues the login as the new user.
    let accounts: AccountService
    /// The clients of pending logins.
    let tenant: TenantCache
    /// Asked only whether a failure means the database is down (503, SPEC §11).
    let database: any WardenStore
    /// `--trusted-proxies`: whose `X-Forwarded-For` names the caller.
    let trustedProxies: [CIDR]

    /// The front channel: requests checked by `validator`, answered through `flow` (or `sessionTransfer`),
    /// people signed in by `passwords` once `postLogin` allows it and `secondFactor` had what it asks for.
    init(
        validator: AuthorizationRequestValidator, flow: AuthorizationFlow, passwords: PasswordAuthenticator,
        passkeys: PasskeyAuthenticator, postLogin: PostLoginCheck, secondFactor: SecondFactor,
        sessionTransfer: SessionTransferConsumer,
        federation: FederatedLogin, accounts: AccountService, tenant: TenantCache, database: any WardenStore,
        trustedProxies: [CIDR]
    ) {
        self.validator = validator
        self.flow = flow
        self.passwords = passwords
        self.passkeys = passkeys
        self.postLogin = postLogin
        self.secondFactor = secondFactor
        self.sessionTransfer = sessionTransfer
        self.federation = federation
        self.accounts = accounts
        self.tenant = tenant
        self.database = database
        self.trustedProxies = trustedProxies
    }

    func addRoutes(to router: Router<WardenRequestContext>) {
        router.get("authorize") { request, context in
            await page(context) {
                guard let query = QueryParameters(request.uri.query) else { throw ErrorPage.malformedRequest }
                return try await authorize(query, request, context: context)
            }
        }
        // OIDC Core §3.1.2.1: the Authorization Server MUST support POST with a form body (SPEC §5).
        router.post("authorize") { request, context in
            await page(context) {
                try await authorize(try await Self.formParameters(request), request, context: context)
            }
        }
        router.get("u/login") { request, context in
            await page(context) { try await showLogin(request) }
        }
        router.post("u/login") { request, context in
            await page(context) { try await login(request, context: context) }
        }
        router.post("u/passkey/options") { request, context in
            await page(context) { try await passkeyOptions(request, context: context) }
        }
        router.post("u/passkey/signup-options") { request, context in
            await page(context) { try await passkeySignUpOptions(request, context: context) }
        }
        router.post("u/consent") { request, context in
            await page(context) { try await consent(request) }
        }
        router.get("u/signup") { request, context in
            await page(context) { try await showSignUp(request) }
        }
        router.post("u/signup") { request, context in
            await page(context) { try await signUp(request, context: context) }
        }
        addOrganizationRoutes(to: router)
    }

    /// `GET|POST /authorize`: validates, asks for the organization first when the client says so (SPEC §19), then
    /// answers from a session transfer token (SPEC §8) or the SSO session (after a second factor when SPEC §12
    /// asks for one the session did not do), or sends the person to log in: to the login form, or with
    /// `connection=` to that connection's upstream (SPEC §15).
    /// The parameters come from the query (`GET`) or the form body (`POST`).
    func authorize(
        _ query: QueryParameters, _ request: Request, context: WardenRequestContext
    ) async throws -> Response {
        let (authorization, client) = try await validator.validate(query)
        if flow.needsOrganizationPrompt(authorization, client: client) {
            guard !authorization.prompt.contains(.none) else {
                return authorization.responseTarget.response(
                    OAuthError("interaction_required", "The user must name their organization"))
            }
            return try await flow.startOrganizationPrompt(authorization)
        }
        return try await proceed(authorization, client: client, query: query, request: request, context: context)
    }

    /// A valid request, its organization known when one is needed: answered from a session transfer token (SPEC
    /// §8) or the SSO session, or the person is sent to log in (`query` gives `screen_hint` and the token).
    func proceed(
        _ authorization: AuthorizationRequest, client: Client, query: QueryParameters, request: Request,
        context: WardenRequestContext
    ) async throws -> Response {
        var upstream: Connection?
        if let name = authorization.connection {
            upstream = try await federation.upstreamConnection(
                named: name, for: client, organizationID: authorization.organization)
        }
        if let transferred = try await sessionTransfer.respond(
            to: authorization, client: client, query: query, request: request, context: context)
        {
            return transferred
        }
        if let session = try await flow.sessions.current(request), let user = try await flow.activeUser(of: session),
            flow.isSatisfied(authorization, by: session)
        {
            switch try await postLogin.check(
                user, client: client, answering: authorization, request: request, context: context)
            {
            case .refused(let response): return response
            case .allowed(let requiresMFA):
                let login = SecondFactor.Login(
                    user: user, client: client, authorization: authorization, returnPath: nil, session: session,
                    firstFactor: .session(amr: session.amr), ruleRequiresMFA: requiresMFA, recordsLogin: false)
                return try await secondFactor.proceed(login, request: request, context: context)
            }
        }
        guard !authorization.prompt.contains(.none) else {
            return authorization.responseTarget.response(
                OAuthError(.loginRequired, "The user is not logged in or must log in again"))
        }
        guard let upstream else {
            return try await flow.startLogin(authorization, signUp: query["screen_hint"] == "signup")
        }
        let id = try await flow.transactions.start(LoginTransaction(request: authorization), stage: .login)
        return try await federation.start(authorization, transactionID: id, connection: upstream, request: request)
    }

    /// The parameters of `POST /authorize`: an `application/x-www-form-urlencoded` body (OIDC Core §3.1.2.1) of
    /// at most 64 KiB (SPEC §11), read as a query string would be (repeats reported, not refused here). Anything
    /// else is the 400 (or 413) error page: the client is not verified yet, so nothing is redirected.
    static func formParameters(_ request: Request) async throws -> QueryParameters {
        guard HeaderValue.mediaType(request.headers[.contentType]) == "application/x-www-form-urlencoded" else {
            throw ErrorPage.malformedRequest
        }
        var tooLarge = ErrorPage.malformedRequest
        tooLarge.status = .contentTooLarge
        let buffer = try await RequestBodyReader.collect(request, tooLarge: tooLarge)
        guard let parameters = QueryParameters(String(buffer: buffer)) else { throw ErrorPage.malformedRequest }
        return parameters
    }

    /// `GET /u/login?state=…`: the login form of a pending transaction; an organization's invitation fills in the
    /// invited address (SPEC §19).
    func showLogin(_ request: Request) async throws -> Response {
        let (id, transaction, client) = try await pending(QueryParameters(request.uri.query)?["state"])
        var email = ""
        if let authorization = transaction.request,
            let invitation = try await flow.admission.invitation(of: authorization)
        {
            email = invitation.inviteeEmail
        }
        return flow.loginPage(
            id: id, transaction: transaction, client: client, email: email,
            options: try await federation.loginOptions(for: client, answering: transaction.request))
    }

    /// `POST /u/login`: checks the CSRF token and the credentials; on success consumes the transaction, runs the
    /// post-login check (SPEC §8), begins (or renews) the SSO session and goes on to the second factor, which
    /// logs `s` and continues the flow once it is done or not asked (SPEC §12).
    func login(_ request: Request, context: WardenRequestContext) async throws -> Response {
        let form = try await HostedPages.readForm(request)
        let (id, transaction, client) = try await pending(form["state"])
        guard CSRFCookie.isValid(field: form["csrf"], request: request, expected: transaction.csrf) else {
            throw ErrorPage.unverifiedForm
        }
        if let name = form["connection"], let authorization = transaction.request,
            let upstream = try await federation.upstreamConnection(
                named: name, for: client, organizationID: authorization.organization)
        {
            return try await federation.start(authorization, transactionID: id, connection: upstream, request: request)
        }
        var options = try await federation.loginOptions(for: client, answering: transaction.request)
        guard options.password else {  // an organization without the database connection (SPEC §19)
            return flow.loginPage(
                id: id, transaction: transaction, client: client,
                message: "Sign in with one of your organization's options below.", options: options)
        }
        if let session = form["passkey_session"], let response = form["passkey_response"] {
            return try await passkeyLogin(
                session: session, response: response, id: id, transaction: transaction, client: client,
                request: request, context: context)
        }
        let email = form["username"] ?? ""
        if options.identifierFirst, form["password"] == nil, !email.isEmpty, let authorization = transaction.request {
            if let upstream = try await federation.connection(
                forEmail: email, client: client, organizationID: authorization.organization)
            {
                return try await federation.start(
                    authorization, transactionID: id, connection: upstream, request: request)
            }
            options.identifierFirst = false  // the password step
            return flow.loginPage(id: id, transaction: transaction, client: client, email: email, options: options)
        }
        options.identifierFirst = false
        guard !email.isEmpty, let password = form["password"] else {
            return flow.loginPage(
                id: id, transaction: transaction, client: client, email: email,
                message: "Enter your e-mail address and password.", options: options)
        }
        let ip = ClientAddress.ip(of: request, context: context, trusted: trustedProxies)
        let attempt = PasswordAuthenticator.Attempt(
            email: email, password: password, client: client, ip: ip, userAgent: request.headers[.userAgent])
        switch try await passwords.authenticate(attempt) {
        case .refused(let message):
            return flow.loginPage(
                id: id, transaction: transaction, client: client, email: email, message: message, options: options)
        case .authenticated(let record):
            return try await signedIn(
                record.user, transactionID: id, client: client, request: request, context: context)
        }
    }

    /// After the first factor (a password, or a new account, SPEC §15.1): consumes the login transaction, runs the
    /// post-login check (SPEC §8), begins (or renews) the SSO session and goes on to the second factor, which logs
    /// `s` and continues the flow once it is done or not asked (SPEC §12).
    func signedIn(
        _ user: User, transactionID id: String, client: Client, request: Request, context: WardenRequestContext,
        firstFactor: MFARequirement.FirstFactor = .credentials
    ) async throws -> Response {
        guard let transaction = try await flow.transactions.consume(id, stage: .login) else {
            throw ErrorPage.expiredTransaction
        }
        let requiresMFA: Bool
        switch try await postLogin.check(
            user, client: client, answering: transaction.request, request: request, context: context)
        {
        case .refused(let response): return response
        case .allowed(let required): requiresMFA = required
        }
        let existing = try await flow.sessions.current(request)
        let (session, cookie) =
            firstFactor == .passkey
            ? try await flow.sessions.signIn(
                userID: user.userID, existing: existing, method: "passkey", amr: [.phishingResistant, .multiFactor])
            : try await flow.sessions.signIn(userID: user.userID, existing: existing)
        let login = SecondFactor.Login(
            user: user, client: client, authorization: transaction.request,
            returnPath: transaction.returnPath, session: session, firstFactor: firstFactor,
            ruleRequiresMFA: requiresMFA, recordsLogin: true)
        return try await secondFactor.proceed(
            login, cookies: cookie.map { [$0] } ?? [], request: request, context: context)
    }

    /// `POST /u/consent`: `action=accept` issues the code, `action=deny` answers `access_denied`.
    func consent(_ request: Request) async throws -> Response {
        let form = try await HostedPages.readForm(request)
        guard let id = form["state"], let transaction = try await flow.transactions.peek(id, stage: .consent) else {
            throw ErrorPage.expiredTransaction
        }
        guard CSRFCookie.isValid(field: form["csrf"], request: request, expected: transaction.csrf) else {
            throw ErrorPage.unverifiedForm
        }
        let action = form["action"]
        guard action == "accept" || action == "deny" else { throw ErrorPage.unreadableForm }
        guard let transaction = try await flow.transactions.consume(id, stage: .consent),
            let authorization = transaction.request,
            let session = try await flow.sessions.current(request), session.id == transaction.sessionID
        else { throw ErrorPage.expiredTransaction }
        guard action == "accept" else {
            return authorization.responseTarget.response(
                OAuthError(.accessDenied, "The user denied access to the application"))
        }
        return try await flow.respondWithCode(
            authorization, session: session, scope: transaction.grantedScope ?? [])
    }

    /// The pending login transaction `id` (at `stage`) and its client.
    func pending(
        _ id: String?, stage: LoginTransaction.Stage = .login
    ) async throws -> (String, LoginTransaction, Client) {
        guard let id, let transaction = try await flow.transactions.peek(id, stage: stage),
            let client = try await tenant.client(id: transaction.clientID)?.client
        else { throw ErrorPage.expiredTransaction }
        return (id, transaction, client)
    }

    /// Runs a handler of the front channel, turning its failures into pages or redirects.
    func page(_ context: WardenRequestContext, _ handler: () async throws -> Response) async -> Response {
        await HostedPages.respond(context, store: database) {
            do {
                return try await handler()
            } catch let failure as AuthorizationFailure {
                return failure.response
            }
        }
    }
}
