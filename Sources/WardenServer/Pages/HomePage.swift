import Hummingbird

/// `GET /`: what this server is, in the hosted pages' look, with a link to its discovery document (SPEC §2, §11).
struct HomePage: Page {
    static let template = "home"
    static let source = """
        {{<layout}}{{$content}}{{#page}}
        <p>This is an OAuth 2.0 and OpenID Connect authorization server. Applications sign people in here; there
        is nothing to do on this page.</p>
        <p class="hint">Developers: the <a href="{{discoveryURL}}">OpenID Connect discovery document</a> describes
        its endpoints. Administrators: <a href="{{consoleURL}}">the Warden console</a>.</p>
        {{/page}}{{/content}}{{/layout}}
        """
    let title = "Warden"
    var discoveryURL: String
    /// The admin console (SPEC §14).
    var consoleURL: String

    /// Adds `GET /`.
    static func addRoutes(to router: Router<WardenRequestContext>, issuer: String) {
        router.get("/") { _, _ in
            PageRenderer.shared.response(
                HomePage(discoveryURL: issuer + ".well-known/openid-configuration", consoleURL: issuer + "admin/"))
        }
    }
}
