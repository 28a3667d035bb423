import Foundation
import HTTPTypes
import Hummingbird
import WardenCore
import WardenWire

/// The admin console at `{issuer}admin/` (SPEC §14). The console is a first-party OAuth client of this very
/// server: `/admin/login` sends the browser through the hosted login with PKCE (client `warden-console`), the
/// callback redeems the code through the authorization-code grant itself, and only a user holding the role
/// `warden:admin` gets a console session (``ConsoleSessions``); anyone else gets the 403 page. Every request
/// checks the role and the user again, so taking the role away or blocking the user ends their access at once.
struct ConsoleController: Sendable {
    static let loginKind = "console_login"
    static let stateCookie = "warden_console_state"
    static let loginLifetime: Double = 600

    let sessions: ConsoleSessions
    /// Redeems the console's authorization codes (the token endpoint's own `authorization_code` handler).
    let codes: any GrantHandler
    let logins: any ArtefactStore
    let users: any UserStore
    let roles: any RoleStore
    let activity: any ActivityStore
    let logs: any LogStore
    let keys: KeyManager
    let signingKeys: any SigningKeyStore
    let eventLog: EventLog
    let pendingRequests: any BackchannelListingStore
    let requestsByConsent: any BackchannelRequestStore
    let backchannel: BackchannelService
    let mfaSettings: any MFASettingsStore
    let tenant: TenantCache
    let store: any WardenStore
    /// The Management controllers' shared validation and writes, which every console change goes through
    /// (SPEC §14).
    let runtime: WardenRuntime
    let clock: any WardenClock
    /// `{issuer}` with its trailing slash.
    let issuer: String
    let trustedProxies: [CIDR]
    /// Runs a connection's "Try" (SPEC §15 "Console").
    let federation: FederatedLogin

    init(
        sessions: ConsoleSessions, codes: any GrantHandler, logins: any ArtefactStore, users: any UserStore,
        roles: any RoleStore, activity: any ActivityStore, logs: any LogStore, keys: KeyManager,
        signingKeys: any SigningKeyStore, eventLog: EventLog, pendingRequests: any BackchannelListingStore,
        requestsByConsent: any BackchannelRequestStore, backchannel: BackchannelService,
        mfaSettings: any MFASettingsStore, tenant: TenantCache,
        store: any WardenStore, runtime: WardenRuntime,
        clock: any WardenClock, issuer: String, trustedProxies: [CIDR], federation: FederatedLogin
    ) {
        self.federation = federation
        self.sessions = sessions
        self.codes = codes
        self.logins = logins
        self.users = users
        self.roles = roles
        self.activity = activity
        self.logs = logs
        self.keys = keys
        self.signingKeys = signingKeys
        self.eventLog = eventLog
        self.pendingRequests = pendingRequests
        self.requestsByConsent = requestsByConsent
        self.backchannel = backchannel
        self.mfaSettings = mfaSettings
        self.tenant = tenant
        self.store = store
        self.runtime = runtime
        self.clock = clock
        self.issuer = issuer
        self.trustedProxies = trustedProxies
    }

    /// `{issuer path}admin/`: where the console's pages and cookies live.
    var base: String { (URL(string: issuer)?.path ?? "/").appendingSlash + "admin/" }
    var callback: String { issuer + "admin/callback" }

    func addRoutes(to router: Router<WardenRequestContext>) {
        let admin = router.group("admin")
        admin.get("/") { request, context in
            await page(request, context) { chrome in
                let since = Date(timeIntervalSince1970: (floor(clock.now().timeIntervalSince1970 / 3600) - 23) * 3600)
                let counts = try await activity.hourlyEventCounts(of: ActivityChart.allTypes, since: since)
                return ConsoleOverviewPage(
                    chrome: chrome, charts: ActivityChart.overview.map { $0.render(counts, now: clock.now()) })
            }
        }
        admin.get("logs") { request, context in
            await page(request, context, current: "Logs") { chrome in try await logsPage(request, chrome: chrome) }
        }
        addKeyRoutes(to: admin)
        addBackchannelRoutes(to: admin)
        addMFARoutes(to: admin)
        addUserRoutes(to: admin)
        addApplicationRoutes(to: admin)
        addAPIRoutes(to: admin)
        addConnectionRoutes(to: admin)
        addRuleRoutes(to: admin)
        addOrganizationRoutes(to: admin)
        admin.get("login") { _, context in
            await HostedPages.respond(context, store: store) { try await startLogin() }
        }
        admin.get("callback") { request, context in
            await HostedPages.respond(context, store: store) { try await finishLogin(request, context) }
        }
        admin.post("logout") { request, context in
            await HostedPages.respond(context, store: store) { try await logout(request) }
        }
    }

    // MARK: Pages and forms

    /// Runs `body` for a signed-in admin (their session and user), carrying a rotated session cookie on its
    /// answer; without a session, the redirect to sign in; for a user who may not use the console, the 403 page.
    func signedIn(
        _ request: Request, _ context: WardenRequestContext,
        _ body: (ConsoleSessions.Session, User) async throws -> Response
    ) async -> Response {
        await HostedPages.respond(context, store: store) {
            guard let (session, rotated) = try await sessions.resume(request) else {
                return Response.redirect(to: base + "login", type: .found)
            }
            var response = try await body(session, try await admin(session.userID))
            if let rotated { response.setCookie(rotated) }
            return response
        }
    }

    /// Renders the page `make` builds for a signed-in admin; otherwise the redirect to sign in, or the 403 page.
    func page(
        _ request: Request, _ context: WardenRequestContext, current: String = "Overview",
        _ make: @Sendable (ConsoleChrome) async throws -> some Page
    ) async -> Response {
        await signedIn(request, context) { session, user in
            ConsolePages.renderer.response(try await make(chrome(session, user, current: current)))
        }
    }

    private func chrome(_ session: ConsoleSessions.Session, _ user: User, current: String) -> ConsoleChrome {
        ConsoleChrome(
            base: base, adminEmail: user.email ?? user.userID, csrf: session.csrf,
            navigation: ConsoleChrome.navigation(base: base, current: current))
    }

    /// Runs the change a console form posts (SPEC §14): only for a signed-in admin, only with the session's CSRF
    /// token, logged as `sapi` (or `fapi` when it throws) with the admin's user id; answers with the redirect
    /// `operation` returns (post/redirect/get), or the failure's page.
    func change(
        _ request: Request, _ context: WardenRequestContext, _ description: String,
        _ operation: @Sendable (RequestParameters) async throws -> String
    ) async -> Response {
        await submit(request, context, description) { form, _ in .redirect(try await operation(form)) }
    }

    /// What a console change answers: the redirect of post/redirect/get, or a page (a secret shown once).
    enum Outcome {
        case redirect(String)
        case page(any Page)
    }

    /// ``change(_:_:_:_:)`` for a form whose Management API refusal (a ``ManagementError``, already logged as
    /// `fapi`) is shown on the page `refused` renders — the form again, with what was typed and the error next
    /// to its field — with the refusal's status; without `refused`, on an error page.
    func submit(
        _ request: Request, _ context: WardenRequestContext, _ description: String, current: String = "Overview",
        refused: (@Sendable (ConsoleChrome, RequestParameters, ManagementError) async throws -> any Page)? = nil,
        _ operation: @Sendable (RequestParameters, ConsoleChrome) async throws -> Outcome
    ) async -> Response {
        await signedIn(request, context) { session, user in
            let form = try await HostedPages.readForm(request)
            guard let field = form["csrf"], SecretHash.constantTimeEquals(field, session.csrf) else {
                throw ConsolePages.forgedForm(base: base)
            }
            let audit = ConsoleAudit(
                eventLog: eventLog, clock: clock, userID: session.userID,
                ip: ClientAddress.ip(of: request, context: context, trusted: trustedProxies),
                userAgent: request.headers[.userAgent], path: request.uri.path)
            let chrome = chrome(session, user, current: current)
            let outcome: Outcome
            do {
                outcome = try await audit.record(description) { try await operation(form, chrome) }
            } catch let error as ManagementError {
                guard let refused else { throw ConsolePages.refused(base: base, error) }
                var response = ConsolePages.renderer.response(try await refused(chrome, form, error))
                response.status = .init(code: error.statusCode)
                return response
            }
            switch outcome {
            case .redirect(let location): return Response.redirect(to: location, type: .normal)
            case .page(let page): return ConsolePages.renderer.response(page)
            }
        }
    }

    /// What `lookup` finds through a Management controller (a record by id, a changeable one), its refusal as
    /// the console's error page.
    func shown<Value>(_ lookup: () async throws -> Value) async throws -> Value {
        do {
            return try await lookup()
        } catch let error as ManagementError {
            throw ConsolePages.refused(base: base, error)
        }
    }

    /// `GET /admin/logs?type=&user_id=&client_id=&page=&follow=1`.
    private func logsPage(_ request: Request, chrome: ConsoleChrome) async throws -> ConsoleLogsPage {
        let query = request.uri.queryParameters
        func field(_ name: String) -> String {
            let value = query[name[...]].map(String.init) ?? ""
            return String(value.trimmingCharacters(in: .whitespaces).prefix(200))
        }
        let filter = ConsoleLogsPage.Filter(
            type: field("type"), userID: field("user_id"), clientID: field("client_id"), follow: field("follow") == "1")
        var terms: [String: [String]] = [:]
        for (name, value) in [("type", filter.type), ("user_id", filter.userID), ("client_id", filter.clientID)]
        where !value.isEmpty {
            terms[name] = [value]
        }
        let page = ConsolePager.request(ManagementRequest.query(request))
        let found = try await logs.searchLogs(LogFilter(terms: terms), ascending: false, page: page)
        let pager = ConsolePager(
            base + "logs",
            [
                ("type", filter.type), ("user_id", filter.userID), ("client_id", filter.clientID),
                ("follow", filter.follow ? "1" : ""),
            ], page: page, hasMore: found.items.count == page.perPage)
        let rows = found.items.map { event in
            ConsoleLogsPage.Row(
                date: ConsolePages.time(event.date), type: event.type.rawValue,
                description: DisplayText.clean(event.description ?? ""),
                user: DisplayText.clean(event.userName ?? event.userID ?? ""),
                client: DisplayText.clean(event.clientName ?? event.clientID ?? ""), ip: event.ip ?? "")
        }
        return ConsoleLogsPage(
            chrome: chrome, filter: filter, rows: rows, pager: pager, refreshSeconds: filter.follow ? 5 : nil)
    }

    /// The user behind a console session, when they may use the console now; the 403 page otherwise.
    private func admin(_ userID: String) async throws -> User {
        guard let record = try await users.user(id: userID), !record.user.blocked,
            try await roles.roles(ofUser: userID).contains(where: { $0.name == Bootstrap.adminRoleName })
        else { throw ConsolePages.forbidden(base: base) }
        return record.user
    }

    // MARK: Sign-in

    /// A fresh PKCE pair and state, remembered for ten minutes and bound to this browser by a cookie, and the
    /// redirect to `/authorize`.
    private func startLogin() async throws -> Response {
        let state = RandomToken.make()
        let verifier = RandomToken.make(bytes: 32)
        try await logins.putArtefact(
            kind: Self.loginKind, hash: SecretHash.sha256Hex(state), payload: verifier,
            expiresAt: clock.now().addingTimeInterval(Self.loginLifetime))
        let location = Self.url(
            issuer + "authorize",
            [
                ("response_type", "code"), ("client_id", Bootstrap.consoleClientID), ("redirect_uri", callback),
                ("scope", "openid profile email"), ("state", state),
                ("code_challenge", SecretHash.sha256Base64URL(verifier)),
                ("code_challenge_method", CodeChallenge.s256),
            ])
        var response = Response.redirect(to: location, type: .found)
        response.setCookie(stateCookie(state, maxAge: Int(Self.loginLifetime)))
        return response
    }

    /// The end of the login: the state must be this browser's and unused, the code is redeemed with its
    /// verifier, and the signed-in user must be an admin.
    private func finishLogin(_ request: Request, _ context: WardenRequestContext) async throws -> Response {
        let query = request.uri.queryParameters
        guard let state = query["state"].map(String.init), let cookie = request.cookies[Self.stateCookie]?.value,
            SecretHash.constantTimeEquals(state, cookie),
            case .consumed(let verifier) = try await logins.consumeArtefact(
                kind: Self.loginKind, hash: SecretHash.sha256Hex(state), now: clock.now())
        else { throw ConsolePages.staleLogin(base: base) }
        if let error = query["error"].map(String.init) {
            throw ConsolePages.loginFailed(base: base, reason: query["error_description"].map(String.init) ?? error)
        }
        guard let code = query["code"].map(String.init),
            let client = try await tenant.client(id: Bootstrap.consoleClientID)
        else { throw ConsolePages.staleLogin(base: base) }
        let parameters = RequestParameters([
            "grant_type": GrantType.authorizationCode.rawValue, "code": code, "redirect_uri": callback,
            "code_verifier": verifier, "client_id": Bootstrap.consoleClientID,
        ])
        let tokens: TokenResponse
        do {
            tokens = try await codes.exchange(
                TokenRequest(
                    parameters: parameters, client: client,
                    ip: ClientAddress.ip(of: request, context: context, trusted: trustedProxies),
                    userAgent: request.headers[.userAgent]))
        } catch let error as OAuthError {
            throw ConsolePages.loginFailed(base: base, reason: error.description)
        }
        // The ID token was signed by this process a moment ago and never left it: its claims are read as they are.
        guard case .string(let idToken)? = tokens.members.first(where: { $0.0 == "id_token" })?.1,
            case .string(let userID)? = try CompactJWS(parsing: idToken).payload["sub"]
        else { throw ErrorPage.serverError }
        _ = try await admin(userID)
        let (_, sessionCookie) = try await sessions.start(userID: userID, idToken: idToken)
        var response = Response.redirect(to: base, type: .found)
        response.setCookie(sessionCookie)
        response.setCookie(stateCookie("", maxAge: 0))
        return response
    }

    /// Ends the console session and the SSO session behind it (RP-initiated logout with the session's ID token
    /// as `id_token_hint`, back to the console, which then asks for a sign-in).
    private func logout(_ request: Request) async throws -> Response {
        let form = try await HostedPages.readForm(request)
        guard let (session, _) = try await sessions.resume(request) else {
            return Response.redirect(to: base, type: .found)
        }
        guard let field = form["csrf"], SecretHash.constantTimeEquals(field, session.csrf) else {
            throw ConsolePages.forgedForm(base: base)
        }
        let cleared = try await sessions.end(request)
        let location = Self.url(
            issuer + "oidc/logout",
            [("id_token_hint", session.idToken), ("post_logout_redirect_uri", issuer + "admin/")])
        var response = Response.redirect(to: location, type: .normal)
        response.setCookie(cleared)
        return response
    }

    /// `address` with `query` (values percent-encoded by URLComponents: none of them holds a `+`).
    static func url(_ address: String, _ query: [(String, String)]) -> String {
        var components = URLComponents(string: address)
        components?.queryItems = query.map { URLQueryItem(name: $0.0, value: $0.1) }
        return components?.string ?? address
    }

    private func stateCookie(_ value: String, maxAge: Int) -> Cookie {
        Cookie(
            name: Self.stateCookie, value: value, maxAge: maxAge, path: base, secure: sessions.secureCookies,
            httpOnly: true, sameSite: .lax)
    }
}

extension String {
    /// The string ending with exactly one `/`.
    fileprivate var appendingSlash: String { hasSuffix("/") ? self : self + "/" }
}
