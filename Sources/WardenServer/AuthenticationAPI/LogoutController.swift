import Foundation
import Hummingbird
import WardenCore
import WardenWire

/// `GET /oidc/logout` (OIDC RP-Initiated Logout 1.0 §2, SPEC §5): ends the SSO session, expires its
/// cookie and logs `slo`; then redirects to `post_logout_redirect_uri` (with `state`) when it is one of the
/// client's `allowed_logout_urls`, or shows the signed-out page. The client is named by `id_token_hint`
/// (an ID token Warden signed, possibly expired) or `client_id`.
///
/// Without `id_token_hint` nothing proves that the signed-in person asked (any page can embed the URL), so a
/// session is ended only after a confirmation (SPEC §11): `GET` shows a form carrying a CSRF token bound to the
/// session, and `POST /oidc/logout` with that token ends it.
struct LogoutController: Sendable {
    let sessions: SessionManager
    /// The upstream sessions of federated logins, for `federated` (SPEC §15 "Logs and logout").
    let upstreamSessions: UpstreamSessions
    /// The `POST` target of the confirmation form: the issuer's path + `oidc/logout`.
    let logoutPath: String
    /// The keys that signed an `id_token_hint`.
    let keys: KeyManager
    /// The clients and their `allowed_logout_urls`.
    let tenant: TenantCache
    let eventLog: EventLog
    let clock: any WardenClock
    /// `{issuer}` with its trailing slash: the `iss` of an `id_token_hint`.
    let issuer: String
    /// `--trusted-proxies`: whose `X-Forwarded-For` names the caller.
    let trustedProxies: [CIDR]

    /// The endpoint ending the sessions of `sessions`, for the hosted pages under `basePath` (the issuer's
    /// path); `id_token_hint`s are checked against `keys` and `issuer`, clients read from `tenant`.
    init(
        sessions: SessionManager, upstreamSessions: UpstreamSessions, basePath: String, keys: KeyManager,
        tenant: TenantCache, eventLog: EventLog, clock: any WardenClock, issuer: String, trustedProxies: [CIDR]
    ) {
        self.sessions = sessions
        self.upstreamSessions = upstreamSessions
        self.logoutPath = basePath + "oidc/logout"
        self.keys = keys
        self.tenant = tenant
        self.eventLog = eventLog
        self.clock = clock
        self.issuer = issuer
        self.trustedProxies = trustedProxies
    }

    /// The logout parameters passed on by the confirmation form.
    static let forwarded = ["client_id", "post_logout_redirect_uri", "state", "federated"]

    func addRoutes(to router: Router<WardenRequestContext>) {
        router.get("oidc/logout") { request, context in try await logout(request, context: context) }
        router.post("oidc/logout") { request, context in
            await HostedPages.respond(context) { try await confirm(request, context: context) }
        }
    }

    func logout(_ request: Request, context: WardenRequestContext) async throws -> Response {
        guard let query = QueryParameters(request.uri.query), query.repeated.isEmpty else {
            return PageRenderer.shared.response(ErrorPage.invalidLogout)
        }
        var clientID = query["client_id"]
        // `federated` is a flag: present, with a value or without (SPEC §15).
        let parameters = { (name: String) in
            name == "federated" && query.names.contains(name) ? "1" : query[name]
        }
        guard let hint = query["id_token_hint"] else {
            if let secret = SessionCookie.secret(in: request), try await sessions.current(request) != nil {
                let fields = Self.forwarded.compactMap { name in
                    parameters(name).map { FormPostPage.Field(name: name, value: $0) }
                }
                return PageRenderer.shared.response(
                    LogoutConfirmationPage(formAction: logoutPath, csrf: Self.csrf(secret: secret), fields: fields))
            }
            return try await end(request, context: context, parameters: parameters, clientID: clientID)
        }
        guard let hinted = hintedClient(hint), clientID == nil || clientID == hinted else {
            return PageRenderer.shared.response(ErrorPage.invalidLogout)
        }
        clientID = hinted
        return try await end(request, context: context, parameters: parameters, clientID: clientID)
    }

    /// `POST /oidc/logout` from the confirmation form: the CSRF token must be the session's.
    private func confirm(_ request: Request, context: WardenRequestContext) async throws -> Response {
        let form = try await HostedPages.readForm(request)
        guard let secret = SessionCookie.secret(in: request), let field = form["csrf"],
            SecretHash.constantTimeEquals(field, Self.csrf(secret: secret))
        else { throw ErrorPage.unverifiedForm }
        return try await end(request, context: context, parameters: { form[$0] }, clientID: form["client_id"])
    }

    /// Ends the session, logs `slo`, expires the cookie and answers with the destination.
    private func end(
        _ request: Request, context: WardenRequestContext, parameters: (String) -> String?, clientID: String?
    ) async throws -> Response {
        var upstream: UpstreamSessions.Entry?
        if let session = try await sessions.end(request) {
            eventLog.record(
                LogEvent(
                    date: clock.now(), type: .logout, description: "User logged out",
                    clientID: clientID,
                    ip: ClientAddress.ip(of: request, context: context, trusted: trustedProxies),
                    userAgent: request.headers[.userAgent], userID: session.userID))
            upstream = try await upstreamSessions.take(sessionID: session.id)
        }
        let redirect = try await allowedRedirect(parameters("post_logout_redirect_uri"), clientID: clientID)
        var response: Response
        if parameters("federated") != nil, let upstream {
            response = Self.upstreamLogout(upstream, redirect: redirect, state: parameters("state"))
        } else if let redirect {
            response = AuthorizationResponseTarget(redirectURI: redirect, mode: .query, state: parameters("state"))
                .response([])
        } else {
            response = PageRenderer.shared.response(SignedOutPage())
        }
        response.setCookie(SessionCookie.expired(secure: sessions.secureCookies))
        return response
    }

    /// The confirmation form's CSRF token: bound to the session's secret, which only the browser's `HttpOnly`
    /// cookie carries, so another site can neither read nor forge it.
    private static func csrf(secret: String) -> String {
        SecretHash.sha256Base64URL("logout:" + SecretHash.sha256Hex(secret))
    }

    /// The client an ID token was issued to, if Warden signed it with a published key (expiry is not checked:
    /// a logout often follows an expired ID token).
    private func hintedClient(_ token: String) -> String? {
        guard let jws = try? CompactJWS(parsing: token), let kid = jws.kid,
            let key = keys.ring.publishedKey(kid: kid), jws.isSigned(by: key.verifier),
            jws.payload["iss"]?.stringValue == issuer
        else { return nil }
        return jws.payload["azp"]?.stringValue ?? jws.audiences.first
    }

    /// `post_logout_redirect_uri` when it is one of the client's `allowed_logout_urls`.
    private func allowedRedirect(_ redirect: String?, clientID: String?) async throws -> String? {
        guard let uri = redirect, let clientID, let client = try await tenant.client(id: clientID)?.client,
            client.allowedLogoutURLs.contains(uri)
        else { return nil }
        return uri
    }

    /// `?federated` after a federated login (SPEC §15): on to the upstream's `end_session_endpoint` with its ID
    /// token as `id_token_hint` and the request's allowed `post_logout_redirect_uri` and `state` (OIDC
    /// RP-Initiated Logout 1.0 §2).
    private static func upstreamLogout(_ upstream: UpstreamSessions.Entry, redirect: String?, state: String?)
        -> Response
    {
        var fields = [("id_token_hint", upstream.idToken)]
        if let redirect {
            fields.append(("post_logout_redirect_uri", redirect))
            if let state { fields.append(("state", state)) }
        }
        return Response(
            status: .found,
            headers: [
                .location: OIDCUpstream.url(upstream.endSessionEndpoint, fields), .cacheControl: "no-store",
            ])
    }
}
