import Foundation
import HTTPTypes
import Hummingbird
import Logging
import WardenCore
import WardenWire

/// The hosted approval page of e-mailed CIBA requests (SPEC §6.4): `GET /u/ciba/{token}` shows the consent
/// details (SPEC §6.5) to the user the request is for, after the hosted login when needed; `POST` records
/// Approve or Deny. Viewing does not use the link up; the decision does, and the link dies with the request.
struct BackchannelApprovalController: Sendable {
    /// The hosted login and the SSO session.
    let flow: AuthorizationFlow
    let service: BackchannelService
    /// Where a link's request is read.
    let requests: any BackchannelRequestStore
    /// The clients and APIs the page names.
    let tenant: TenantCache
    let eventLog: EventLog
    let clock: any WardenClock
    /// `--trusted-proxies`: whose `X-Forwarded-For` names the caller.
    let trustedProxies: [CIDR]

    /// The page of the requests of `requests`, signing in through `flow` and deciding through `service`;
    /// decisions are logged to `eventLog`.
    init(
        flow: AuthorizationFlow, service: BackchannelService, requests: any BackchannelRequestStore,
        tenant: TenantCache, eventLog: EventLog, clock: any WardenClock, trustedProxies: [CIDR]
    ) {
        self.flow = flow
        self.service = service
        self.requests = requests
        self.tenant = tenant
        self.eventLog = eventLog
        self.clock = clock
        self.trustedProxies = trustedProxies
    }

    func addRoutes(to router: Router<WardenRequestContext>) {
        router.get("u/ciba/:token") { request, context in
            await HostedPages.respond(context) { try await show(request, context: context) }
        }
        router.get("u/ciba/resume") { request, context in
            await HostedPages.respond(context) { try resume(request) }
        }
        router.post("u/ciba/:token") { request, context in
            await HostedPages.respond(context) { try await answer(request, context: context) }
        }
    }

    /// The page of a pending request, or the way to it.
    func show(_ request: Request, context: WardenRequestContext) async throws -> Response {
        let (token, record) = try await pendingRequest(context)
        guard let session = try await signedInSession(request, for: record) else {
            return try await startLogin(token: token, record: record)
        }
        guard let user = try await flow.activeUser(of: session) else {
            return try await startLogin(token: token, record: record)
        }
        let client = try await tenant.client(id: record.clientID)?.client
        let page = BackchannelApprovalPage(
            clientName: DisplayText.clean(client?.name ?? "An application"), email: user.email ?? user.userID,
            bindingMessage: DisplayText.clean(record.bindingMessage), audience: try await apiName(record.audience),
            scopes: try await flow.scopes.descriptions(
                of: record.scope.filter { $0 != "openid" }, audience: record.audience),
            details: AuthorizationDetailsDisplay.sections(record.authorizationDetails),
            expiresAt: Self.describe(record.expiresAt), formAction: path(token),
            csrf: Self.csrf(request: request, record: record))
        return PageRenderer.shared.response(page)
    }

    /// Records the decision (SPEC §6.2: each request is answered once).
    func answer(_ request: Request, context: WardenRequestContext) async throws -> Response {
        let form = try await HostedPages.readForm(request)
        let (_, record) = try await pendingRequest(context)
        guard let session = try await signedInSession(request, for: record),
            let field = form["csrf"], SecretHash.constantTimeEquals(field, Self.csrf(request: request, record: record))
        else { throw ErrorPage.unverifiedForm }
        // A user blocked since the page was shown can no longer answer.
        guard try await flow.activeUser(of: session) != nil else { throw ResultPages.blocked }
        let action = form["action"]
        guard action == "accept" || action == "deny" else { throw ErrorPage.unreadableForm }
        let approved = action == "accept"
        switch try await service.decide(record, approved: approved) {
        case .decided:
            let ip = ClientAddress.ip(of: request, context: context, trusted: trustedProxies)
            eventLog.record(
                LogEvent(
                    date: clock.now(), type: approved ? .deviceAccepted : .deviceRejected,
                    description: approved
                        ? "Approved on the e-mail approval page" : "Denied on the e-mail approval page",
                    clientID: record.clientID, ip: ip, userAgent: request.headers[.userAgent], userID: session.userID,
                    audience: record.audience, scope: record.scope.joined(separator: " ")))
            let client = try await tenant.client(id: record.clientID)?.client
            let name = DisplayText.clean(client?.name ?? "the application")
            return PageRenderer.shared.response(
                approved
                    ? NoticePage(
                        title: "Request approved", message: "You approved the request of \(name).",
                        advice: "You can close this page and go back to \(name).")
                    : NoticePage(
                        title: "Request denied", message: "You denied the request of \(name).",
                        advice: "If you did not expect this request, consider changing your password."))
        case .alreadyDecided: throw ResultPages.alreadyAnswered
        case .expired: throw ResultPages.expired
        case .notFound: throw ResultPages.unknownLink
        }
    }

    /// The link's request while it can still be decided, or the page that says why not.
    private func pendingRequest(_ context: WardenRequestContext) async throws -> (String, BackchannelRequest) {
        guard let token = context.parameters.get("token"), !token.isEmpty,
            let record = try await requests.backchannelRequest(approvalTokenHash: SecretHash.sha256Hex(token))
        else { throw ResultPages.unknownLink }
        guard record.status == .pending else { throw ResultPages.alreadyAnswered }
        guard !record.isExpired(at: clock.now()) else { throw ResultPages.expired }
        return (token, record)
    }

    /// The SSO session, when it belongs to the request's user.
    private func signedInSession(_ request: Request, for record: BackchannelRequest) async throws -> Session? {
        guard let session = try await flow.sessions.current(request), session.userID == record.userID else {
            return nil
        }
        return session
    }

    /// Sends the person to the hosted login, which brings them back here (SPEC §6.4). The link's token is
    /// stored only as a hash (SPEC §3): the login transaction returns to `u/ciba/resume`, and the token waits
    /// in an `HttpOnly` cookie of this browser, which had it in its address bar anyway.
    private func startLogin(token: String, record: BackchannelRequest) async throws -> Response {
        let id = try await flow.transactions.start(
            LoginTransaction(returnPath: flow.basePath + "u/ciba/resume", clientID: record.clientID), stage: .login)
        var response = Response(
            status: .found, headers: [.location: flow.loginPath + "?state=" + id, .cacheControl: "no-store"])
        response.setCookie(
            Cookie(
                name: Self.linkCookie, value: token, maxAge: 3600, path: flow.basePath + "u/ciba/",
                secure: flow.sessions.secureCookies, httpOnly: true, sameSite: .lax))
        return response
    }

    /// `GET u/ciba/resume`: back from the hosted login, to the link the cookie holds.
    func resume(_ request: Request) throws -> Response {
        guard let token = request.cookies[Self.linkCookie]?.value, !token.isEmpty,
            token.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }), token.count <= 128
        else { throw ResultPages.unknownLink }
        return Response(status: .found, headers: [.location: path(token), .cacheControl: "no-store"])
    }

    /// The cookie that carries the link's token through the hosted login.
    static let linkCookie = "warden_ciba_link"

    private func path(_ token: String) -> String { flow.basePath + "u/ciba/" + token }

    private func apiName(_ audience: String?) async throws -> String? {
        guard let audience else { return nil }
        guard let api = try await tenant.resourceServer(identifier: audience) else { return audience }
        return api.name == api.identifier ? api.identifier : "\(api.name) (\(api.identifier))"
    }

    /// The form's CSRF token: bound to the session's secret (which only the browser's `HttpOnly` cookie
    /// carries) and to the request, so another site can neither read nor forge it.
    private static func csrf(request: Request, record: BackchannelRequest) -> String {
        let secret = SessionCookie.secret(in: request) ?? ""
        return SecretHash.sha256Base64URL("ciba-approval:" + SecretHash.sha256Hex(secret) + ":" + record.id.hex)
    }

    static func describe(_ date: Date) -> String {
        date.formatted(.iso8601.year().month().day().dateSeparator(.dash).time(includingFractionalSeconds: false))
            .replacingOccurrences(of: "T", with: " at ") + " UTC"
    }

    /// The pages of links that can no longer be used.
    enum ResultPages {
        static let unknownLink = NoticePage(
            title: "Link not valid", message: "This approval link is not valid.",
            advice: "Open the most recent e-mail, or ask the application to send a new request.",
            status: .notFound)
        static let alreadyAnswered = NoticePage(
            title: "Already answered", message: "This request was already approved or denied.",
            advice: "Nothing more to do. If that was not you, change your password.", status: .conflict)
        static let blocked = NoticePage(
            title: "Account blocked", message: "Your account is blocked, so this request cannot be answered.",
            advice: "Contact your administrator.", status: .forbidden)
        static let expired = NoticePage(
            title: "Request expired", message: "This request has expired.",
            advice: "Ask the application to send a new request.", status: .gone)
    }
}
