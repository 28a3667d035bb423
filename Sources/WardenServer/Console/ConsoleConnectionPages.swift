import Foundation
import WardenCore
import WardenWire

/// The Connections page (SPEC §14, §15 "Console"): where users' identities live, the database connection
/// `Username-Password-Authentication` first and marked as such (it cannot be deleted), each other connection with
/// the number of applications it is enabled for and a delete button.
struct ConsoleConnectionsPage: Page {
    static let template = "console_connections"
    let title = "Connections"
    var chrome: ConsoleChrome
    var rows: [Row]
    var total: Int
    var pager: ConsolePager
    var notice: String?
    var presets: [ConsoleConnectionPreset.Link]

    struct Row: Sendable {
        var href: String
        var name: String
        var displayName: String
        var strategy: String
        var applications: String
        var isDatabase: Bool
    }

    static let source = """
        {{<layout}}{{$content}}{{#page}}
        {{#notice}}<p class="notice" role="status">{{notice}}</p>{{/notice}}
        <p class="actions">Create a connection: {{#presets}}<a href="{{href}}">{{label}}</a>{{/presets}}</p>
        <div class="table"><table>
        <caption>Connections ({{total}}, page {{pager.number}})</caption>
        <thead><tr><th scope="col">Name</th><th scope="col">Display name</th><th scope="col">Strategy</th>
        <th scope="col">Applications</th><th scope="col"><span class="visually-hidden">Action</span></th></tr></thead>
        <tbody>
        {{#rows}}<tr><td data-label="Name"><a href="{{href}}">{{name}}</a>{{#isDatabase}} <strong>(database)</strong>{{/isDatabase}}</td>
        <td data-label="Display name">{{displayName}}</td><td data-label="Strategy"><code>{{strategy}}</code></td>
        <td data-label="Applications">{{applications}}</td><td>{{^isDatabase}}
        <form method="post" action="{{href}}/delete"><input type="hidden" name="csrf" value="{{chrome.csrf}}">
        <button type="submit" class="danger" aria-label="Delete the connection {{name}} and its users">Delete</button></form>
        {{/isDatabase}}</td></tr>
        {{/rows}}
        {{^rows}}<tr><td colspan="5">No connection.</td></tr>{{/rows}}
        </tbody></table></div>
        {{> pager}}
        {{/page}}{{/content}}{{/layout}}
        """
}

/// A kind of connection the console creates (SPEC §15 "Console": from a discovery URL or a preset): its strategy
/// and the form whose fields become the body of `POST /api/v2/connections`.
struct ConsoleConnectionPreset: Sendable {
    var id: String
    var label: String
    var strategy: ConnectionStrategy
    /// The form, with its defaults typed in.
    var form: ConsoleForm

    /// A preset as the pages link to it.
    struct Link: Sendable {
        var label: String
        var href: String
        /// `aria-current` on the preset shown.
        var current: Bool
    }

    private static let name = ConsoleField(
        "name", "Name", .text(whenEmpty: .emptyString),
        hint: "Letters, digits and inner hyphens, as in /authorize?connection=NAME; it cannot be changed later.")
    /// `options.domain_aliases` of an enterprise connection (SPEC §15: identifier-first login).
    static let domainAliases = ConsoleField(
        "options.domain_aliases", "Domain aliases", .commaSeparated,
        hint: "E-mail domains, comma-separated, whose users the login page sends to this provider.")
    private static let clientID = ConsoleField("options.client_id", "Client id", .text(whenEmpty: .emptyString))
    private static let clientSecret = ConsoleField(
        "options.client_secret", "Client secret", .password, hint: "Never shown again.")

    /// OpenID Connect from the upstream's discovery document (strategy `oidc`).
    static let oidc = ConsoleConnectionPreset(
        id: "oidc", label: "OpenID Connect", strategy: .oidc,
        form: ConsoleForm([
            .init(
                legend: "OpenID Connect provider",
                fields: [
                    name,
                    ConsoleField(
                        "display_name", "Display name", hint: "The label of its login button; the name when empty."),
                    ConsoleField(
                        "options.discovery_url", "Discovery URL", .text(whenEmpty: .omitted),
                        hint: "The provider's /.well-known/openid-configuration (https, or http on a loopback address)."
                    ),
                    clientID, clientSecret,
                    ConsoleField(
                        "options.scope", "Scope", .text(whenEmpty: .omitted),
                        hint: "Space-separated, with openid; openid profile email when empty."),
                    ConsoleField("show_as_button", "Show a button on the login page", .checkbox),
                    domainAliases,
                ])
        ]))

    /// GitHub or GitHub Enterprise Server (strategy `github`).
    static let github = ConsoleConnectionPreset(
        id: "github", label: "GitHub", strategy: .github,
        form: ConsoleForm([
            .init(
                legend: "GitHub OAuth app",
                fields: [
                    name, clientID, clientSecret,
                    ConsoleField(
                        "options.base_url", "GitHub Enterprise Server URL", .text(whenEmpty: .omitted),
                        hint: "Only for GitHub Enterprise Server; empty for github.com."),
                    ConsoleField("options.email", "Ask for the e-mail addresses (user:email)", .checkbox),
                ])
        ]).filled(["name": "github", "options.email": "on"]))

    /// Google (strategy `google-oauth2`).
    static let google = ConsoleConnectionPreset(
        id: "google", label: "Google", strategy: .googleOAuth2,
        form: ConsoleForm([
            .init(
                legend: "Google OAuth client",
                fields: [
                    name, clientID, clientSecret,
                    ConsoleField("options.email", "Ask for the e-mail address", .checkbox),
                    ConsoleField("options.profile", "Ask for the basic profile", .checkbox),
                ])
        ]).filled(["name": "google-oauth2", "options.email": "on", "options.profile": "on"]))

    static let all = [oidc, github, google]

    /// The preset `id` names; OpenID Connect for any other.
    static func named(_ id: String?) -> ConsoleConnectionPreset {
        all.first { $0.id == id } ?? oidc
    }

    /// The path of its form under the console's base.
    var createPath: String { "connections/new?preset=" + id }

    /// The body of `POST /api/v2/connections` for the form `input`.
    func body(_ input: (String) -> String?) -> [String: JSONValue] {
        var body = form.body(from: input)
        body["strategy"] = .string(strategy.rawValue)
        return body
    }

    /// Every preset's link, `current` marked.
    static func links(base: String, current: String?) -> [Link] {
        all.map { Link(label: $0.label, href: base + $0.createPath, current: $0.id == current) }
    }
}

/// The form that creates a connection from a preset (SPEC §15 "Console"), the presets linked above it.
struct ConsoleNewConnectionPage: Page {
    static let template = "console_connection_new"
    let title = "New connection"
    var chrome: ConsoleChrome
    var presets: [ConsoleConnectionPreset.Link]
    var createPath: String
    var createHeading: String
    let createButton = "Create the connection"
    var form: ConsoleFormView

    static let source = """
        {{<layout}}{{$content}}{{#page}}
        <p><a href="{{chrome.base}}connections">← All connections</a></p>
        <nav class="actions" aria-label="Kinds of connection">{{#presets}}<a href="{{href}}"{{#current}} aria-current="page"{{/current}}>{{label}}</a>{{/presets}}</nav>
        {{> create_form}}
        {{/page}}{{/content}}{{/layout}}
        """
}

/// A connection's page (SPEC §15 "Console"): its options as the Management API shows them (no secret), the
/// settings a PATCH changes (display name, login button, domain aliases), the applications it is enabled for,
/// and the delete button; the database connection is enabled for every application and cannot be deleted.
struct ConsoleConnectionPage: Page {
    static let template = "console_connection"
    var title: String
    var chrome: ConsoleChrome
    var path: String
    var notice: String?
    var isDatabase: Bool
    var details: [ConsoleUserPage.Detail]
    var options: [ConsoleUserPage.Detail]
    var form: ConsoleFormView?
    var clientsForm: ConsoleFormView?

    /// The settings of `strategy`'s connections that the page changes (domain aliases: enterprise ones).
    static func editForm(_ strategy: ConnectionStrategy) -> ConsoleForm {
        var fields = [
            ConsoleField("display_name", "Display name", hint: "The label of its login button; the name when empty."),
            ConsoleField("show_as_button", "Show a button on the login page", .checkbox),
        ]
        if strategy == .oidc { fields.append(ConsoleConnectionPreset.domainAliases) }
        return ConsoleForm([.init(legend: "Connection", fields: fields)])
    }

    /// The applications a connection may be enabled for, one checkbox each.
    static func clientsForm(_ clients: [ClientRecord]) -> ConsoleForm {
        ConsoleForm([
            .init(
                legend: "Applications",
                fields: [
                    ConsoleField(
                        "enabled_clients", "Enabled for",
                        .checkboxes(
                            clients.map {
                                ConsoleField.Option(value: $0.client.clientID, label: DisplayText.clean($0.client.name))
                            }))
                ])
        ])
    }

    static let source = """
        {{<layout}}{{$content}}{{#page}}
        {{#notice}}<p class="notice" role="status">{{notice}}</p>{{/notice}}
        <p><a href="{{chrome.base}}connections">← All connections</a></p>
        <section class="card"><h2>Details</h2>
        <dl class="details">{{#details}}<dt>{{name}}</dt><dd>{{value}}</dd>{{/details}}</dl>
        <h2>Options</h2>
        <dl class="details">{{#options}}<dt>{{name}}</dt><dd><code>{{value}}</code></dd>{{/options}}</dl>
        {{^options}}<p class="hint">No option.</p>{{/options}}
        </section>
        {{#isDatabase}}<p class="hint">The database connection is enabled for every application and cannot be deleted.</p>{{/isDatabase}}
        {{#form}}{{> save_form}}{{/form}}
        {{#clientsForm}}<form class="card settings" method="post" action="{{path}}/clients">
        <input type="hidden" name="csrf" value="{{chrome.csrf}}">
        {{> form_fields}}
        <button type="submit">Save the applications</button>
        </form>{{/clientsForm}}
        {{^isDatabase}}<form class="card settings" method="post" action="{{path}}/try">
        <h2>Try</h2>
        <input type="hidden" name="csrf" value="{{chrome.csrf}}">
        <p class="hint">Sign in through this provider in this browser and see the profile Warden would store.
        Nobody is signed in to Warden and no user is made.</p>
        <button type="submit" class="secondary">Try the connection</button>
        </form>
        <form class="card settings" method="post" action="{{path}}/delete">
        <h2>Delete</h2>
        <input type="hidden" name="csrf" value="{{chrome.csrf}}">
        <p class="hint">Deleting the connection also deletes the users who signed in through it.</p>
        <button type="submit" class="danger">Delete the connection and its users</button>
        </form>{{/isDatabase}}
        {{/page}}{{/content}}{{/layout}}
        """
}

/// The outcome of a connection's "Try" (SPEC §15 "Console"): the user id Warden would make or find and the
/// identity it would store, or why the upstream login failed.
struct ConsoleConnectionTrialPage: Page {
    static let template = "console_connection_trial"
    var title: String
    var chrome: ConsoleChrome
    /// The connection's page.
    var path: String
    var failure: String?
    var userID: String?
    /// The identity as `identities[]` would show it, member by member.
    var identity: [ConsoleUserPage.Detail]

    static let source = """
        {{<layout}}{{$content}}{{#page}}
        <p><a href="{{path}}">← The connection</a></p>
        {{#failure}}<p class="message" role="alert">The sign-in failed: {{failure}}</p>
        <p class="hint">Check the connection's client id, secret and endpoints, and that the provider lists
        Warden's callback as a redirect URI; then try again.</p>{{/failure}}
        {{#userID}}<section class="card"><h2>The user</h2>
        <p>A login through this connection signs in as <code>{{userID}}</code> (made on its first login).</p>
        <h2>The identity Warden would store</h2>
        <dl class="details">{{#identity}}<dt>{{name}}</dt><dd><code>{{value}}</code></dd>{{/identity}}</dl>
        </section>{{/userID}}
        <form method="post" action="{{path}}/try"><input type="hidden" name="csrf" value="{{chrome.csrf}}">
        <button type="submit" class="secondary">Try again</button></form>
        {{/page}}{{/content}}{{/layout}}
        """
}
