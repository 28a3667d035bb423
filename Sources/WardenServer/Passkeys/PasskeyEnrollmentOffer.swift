import Foundation
import Hummingbird
import WardenCore
import WardenWire

/// Progressive enrolment (SPEC §17 "Hosted pages"): after a password login has passed every factor, and before the
/// application gets its answer, Warden offers "Create a passkey" (`excludeCredentials` listing the user's passkeys)
/// or "Not now" (a plain form button; not asked again in that browser for 30 days). Offered only while passkeys and
/// `progressive_enrollment_enabled` are on, to a database user with fewer than 20 passkeys, never with
/// `prompt=none`. A passkey that cannot be made ends the login all the same: the offer never stands between the
/// person and the application.
struct PasskeyEnrollmentOffer: Sendable {
    let ceremonies: PasskeyCeremonies
    let credentials: any WebAuthnCredentialStore
    let connections: any ConnectionStore
    let tenant: TenantCache
    let users: any UserStore

    /// The cookie of "Not now".
    static let laterCookie = "warden_passkey_later"
    static let laterLifetime = 30 * 86_400

    /// The redirect to the offer, when it applies to this login; `nil` to answer the application at once.
    func offer(
        user: User, client: Client, authorization: AuthorizationRequest, session: Session, request: Request,
        flow: AuthorizationFlow
    ) async throws -> Response? {
        guard session.amr.contains(.password), !authorization.prompt.contains(.none), user.userID.hasPrefix("auth0|"),
            request.cookies[Self.laterCookie] == nil
        else { return nil }
        let policy = try await PasskeyPolicy.current(connections)
        guard policy.enabled, policy.progressiveEnrollment,
            try await credentials.webAuthnCredentials(userID: user.userID).count(where: { $0.kind == .passkey })
                < PasskeyPolicy.limitPerUser
        else { return nil }
        var transaction = LoginTransaction(authorization, returnPath: nil, clientID: client.clientID)
        transaction.sessionID = session.id
        transaction.userID = user.userID
        let id = try await flow.transactions.start(transaction, stage: .passkeyOffer)
        let response = Response(
            status: .seeOther,
            headers: [
                .location: flow.basePath + "u/passkey/enroll?state=" + PercentEncoding.unreserved(id),
                .cacheControl: "no-store",
            ])
        return flow.withCSRFCookie(response, token: transaction.csrf)
    }

    func addRoutes(to router: Router<WardenRequestContext>, flow: AuthorizationFlow, database: any WardenStore) {
        router.get("u/passkey/enroll") { request, context in
            await HostedPages.respond(context, store: database) {
                let pending = try await pending(QueryParameters(request.uri.query)?["state"], flow: flow)
                return flow.withCSRFCookie(
                    PageRenderer.shared.response(page(pending, flow: flow)), token: pending.transaction.csrf)
            }
        }
        router.post("u/passkey/enroll-options") { request, context in
            await HostedPages.respond(context, store: database) {
                let (pending, _) = try await verified(request, flow: flow)
                let existing = try await credentials.webAuthnCredentials(userID: pending.user.userID)
                    .filter { $0.kind == .passkey }
                let (options, session) = try await ceremonies.startEnrollment(
                    of: pending.user, existing: existing, clientID: pending.client.clientID, transactionID: pending.id)
                return PasskeyController.answer(options, session)
            }
        }
        router.post("u/passkey/enroll") { request, context in
            await HostedPages.respond(context, store: database) {
                let (pending, form) = try await verified(request, flow: flow)
                var later: Cookie?
                if let session = form["passkey_session"], let answer = form["passkey_response"] {
                    // Made or not, the login goes on: a failure is the browser's or a replay's, not the person's.
                    _ = try? await enroll(
                        pending, session: session, answer: answer, userAgent: request.headers[.userAgent])
                } else {
                    later = Cookie(
                        name: Self.laterCookie, value: "1", maxAge: Self.laterLifetime, path: flow.basePath,
                        secure: flow.sessions.secureCookies, httpOnly: true, sameSite: .lax)
                }
                guard try await flow.transactions.consume(pending.id, stage: .passkeyOffer) != nil else {
                    throw ErrorPage.expiredTransaction
                }
                guard let session = pending.session else { throw ErrorPage.expiredTransaction }
                var response = try await flow.complete(
                    pending.authorization, client: pending.client, session: session, user: pending.user)
                if let later { response.setCookie(later) }
                return response
            }
        }
    }

    /// A pending offer and what it names.
    struct Pending: Sendable {
        var id: String
        var transaction: LoginTransaction
        var authorization: AuthorizationRequest
        var client: Client
        var user: User
        /// The browser's SSO session, the one the login made (checked on posts).
        var session: Session?
    }

    private func pending(_ id: String?, flow: AuthorizationFlow, request: Request? = nil) async throws -> Pending {
        guard let id, let transaction = try await flow.transactions.peek(id, stage: .passkeyOffer),
            let authorization = transaction.request, let userID = transaction.userID,
            let client = try await tenant.client(id: transaction.clientID)?.client,
            let user = try await users.user(id: userID)?.user
        else { throw ErrorPage.expiredTransaction }
        var session: Session?
        if let request {
            guard let current = try await flow.sessions.current(request), current.id == transaction.sessionID else {
                throw ErrorPage.expiredTransaction
            }
            session = current
        }
        return Pending(
            id: id, transaction: transaction, authorization: authorization, client: client, user: user,
            session: session)
    }

    /// The posted form of an offer, its CSRF token checked and its SSO session the browser's.
    private func verified(_ request: Request, flow: AuthorizationFlow) async throws -> (Pending, RequestParameters) {
        let form = try await HostedPages.readForm(request)
        let pending = try await pending(form["state"], flow: flow, request: request)
        guard CSRFCookie.isValid(field: form["csrf"], request: request, expected: pending.transaction.csrf) else {
            throw ErrorPage.unverifiedForm
        }
        return (pending, form)
    }

    private func enroll(_ pending: Pending, session: String, answer: String, userAgent: String?) async throws {
        let ceremony = try await ceremonies.consume(
            session, clientID: pending.client.clientID, transactionID: pending.id)
        guard ceremony.userID == pending.user.userID else {
            throw OAuthError(.invalidGrant, "The auth_session is not this user's")
        }
        let credential = try ceremonies.register(
            try PublicKeyCredentialAnswer(json: answer), pending: ceremony, userID: pending.user.userID,
            userAgent: userAgent)
        _ = try await credentials.insertWebAuthnCredential(credential, limit: PasskeyPolicy.limitPerUser)
    }

    private func page(_ pending: Pending, flow: AuthorizationFlow) -> PasskeyEnrollPage {
        PasskeyEnrollPage(
            clientName: pending.client.name, email: pending.user.email ?? "",
            formAction: flow.basePath + "u/passkey/enroll", optionsURL: flow.basePath + "u/passkey/enroll-options",
            state: pending.id, csrf: pending.transaction.csrf)
    }
}

/// The offer of progressive enrolment (SPEC §17): "Create a passkey" (the page's script; hidden without JavaScript)
/// and "Not now".
struct PasskeyEnrollPage: Page {
    static let template = "passkey_enroll"
    static let source = """
        {{<layout}}{{$content}}{{#page}}
        <p>Sign in to <strong>{{clientName}}</strong> faster next time, without your password: create a passkey for
        <strong>{{email}}</strong> with this device's screen lock or your password manager.</p>
        <form id="passkey-enroll" method="post" action="{{formAction}}" data-options="{{optionsURL}}">
        <input type="hidden" name="state" value="{{state}}">
        <input type="hidden" name="csrf" value="{{csrf}}">
        <input type="hidden" name="passkey_session" value="">
        <input type="hidden" name="passkey_response" value="">
        <button type="button" id="passkey-add" hidden>Create a passkey</button>
        </form>
        <form method="post" action="{{formAction}}">
        <input type="hidden" name="state" value="{{state}}">
        <input type="hidden" name="csrf" value="{{csrf}}">
        <button type="submit" name="action" value="later" class="secondary">Not now</button>
        </form>
        <script>\(PasskeyScript.source)</script>
        {{/page}}{{/content}}{{/layout}}
        """
    let title = "Create a passkey"
    var clientName: String
    var email: String
    var formAction: String
    var optionsURL: String
    var state: String
    var csrf: String
}
