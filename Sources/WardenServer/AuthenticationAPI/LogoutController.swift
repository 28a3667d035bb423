import Hummingbird
import WardenCore

/// `GET /oidc/logout` (OIDC RP-Initiated Logout 1.0 §2, SPEC §5): ends the SSO session, expires its
/// cookie and logs `slo`; then redirects to `post_logout_redirect_uri` (with `state`) when it is one of the
/// client's `allowed_logout_urls`, or shows the signed-out page. The client is named by `id_token_hint`
/// (an ID token Warden signed, possibly expired) or `client_id`.
struct LogoutController: Sendable {
    let runtime: WardenRuntime
    let sessions: SessionManager

    init(runtime: WardenRuntime) {
        self.runtime = runtime
        self.sessions = SessionManager(runtime: runtime)
    }

    func addRoutes(to router: Router<WardenRequestContext>) {
        router.get("oidc/logout") { request, context in try await logout(request, context: context) }
    }

    func logout(_ request: Request, context: WardenRequestContext) async throws -> Response {
        guard let query = QueryParameters(request.uri.query), query.repeated.isEmpty else {
            return PageRenderer.shared.response(ErrorPage.invalidLogout)
        }
        var clientID = query["client_id"]
        if let hint = query["id_token_hint"] {
            guard let hinted = hintedClient(hint), clientID == nil || clientID == hinted else {
                return PageRenderer.shared.response(ErrorPage.invalidLogout)
            }
            clientID = hinted
        }
        if let session = try await sessions.end(request) {
            runtime.eventLog.record(
                LogEvent(
                    date: runtime.clock.now(), type: .logout, description: "User logged out",
                    clientID: clientID,
                    ip: ClientAddress.ip(of: request, context: context, trusted: runtime.trustedProxies),
                    userAgent: request.headers[.userAgent], userID: session.userID))
        }
        var response = try await destination(query, clientID: clientID)
        response.setCookie(SessionCookie.expired(secure: sessions.secureCookies))
        return response
    }

    /// The client an ID token was issued to, if Warden signed it with a published key (expiry is not checked:
    /// a logout often follows an expired ID token).
    private func hintedClient(_ token: String) -> String? {
        guard let jws = try? CompactJWS(parsing: token), let kid = jws.kid,
            let key = runtime.keys.ring.publishedKey(kid: kid), jws.isSigned(by: key.verifier),
            jws.payload["iss"]?.stringValue == runtime.issuer
        else { return nil }
        return jws.payload["azp"]?.stringValue ?? jws.audiences.first
    }

    /// The registered `post_logout_redirect_uri` with `state`, or the signed-out page.
    private func destination(_ query: QueryParameters, clientID: String?) async throws -> Response {
        guard let uri = query["post_logout_redirect_uri"], let clientID,
            let client = try await runtime.cache.client(id: clientID)?.client,
            client.allowedLogoutURLs.contains(uri)
        else { return PageRenderer.shared.response(SignedOutPage()) }
        return AuthorizationResponseTarget(redirectURI: uri, mode: .query, state: query["state"]).response([])
    }
}
