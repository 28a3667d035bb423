import Foundation
import HTTPTypes
import Hummingbird
import WardenCore

/// What every console page shows around its content (SPEC §14): the signed-in admin, the navigation and the
/// sign-out form with the session's CSRF token.
struct ConsoleChrome: Sendable {
    /// `{issuer-path}admin/`: every console link starts here.
    var base: String
    var adminEmail: String
    var csrf: String
    var navigation: [NavigationItem]

    struct NavigationItem: Sendable {
        var name: String
        var href: String
        /// `aria-current="page"` on the link of the page shown.
        var current: Bool
    }

    /// The console's sections, the one named `current` marked.
    static func navigation(base: String, current: String) -> [NavigationItem] {
        [
            ("Overview", ""), ("Users", "users"), ("Applications", "applications"), ("APIs", "apis"),
            ("Connections", "connections"), ("Organizations", "organizations"), ("Rules", "rules"), ("MFA", "mfa"),
            ("CIBA", "ciba"), ("Logs", "logs"),
            ("Keys", "keys"),
        ].map {
            NavigationItem(name: $0.0, href: base + $0.1, current: $0.0 == current)
        }
    }
}

/// The overview (SPEC §14): sign-ins, token issuance by grant and CIBA outcomes over the last 24 hours.
struct ConsoleOverviewPage: Page {
    static let template = "console_overview"
    let title = "Overview"
    var chrome: ConsoleChrome
    var charts: [ActivityChart.Rendered]
}

/// The event log (SPEC §14 "logs"): newest first, 50 a page, filtered by type, user and client; "follow" reloads
/// the page every 5 seconds (a `<meta http-equiv="refresh">`, no script).
struct ConsoleLogsPage: Page {
    static let template = "console_logs"
    let title = "Logs"
    var chrome: ConsoleChrome
    var filter: Filter
    var rows: [Row]
    var pager: ConsolePager
    /// Seconds between reloads while following.
    var refreshSeconds: Int?

    struct Filter: Sendable {
        var type: String
        var userID: String
        var clientID: String
        var follow: Bool
    }

    struct Row: Sendable {
        var date: String
        var type: String
        var description: String
        var user: String
        var client: String
        var ip: String
    }
}

/// The console's templates and stylesheet: the hosted pages' look, widened for tables and charts, usable at
/// 390 px (the navigation wraps, charts scale with the width).
enum ConsoleTemplates {
    static let all: [String: String] = [
        "layout": layout,
        ConsoleOverviewPage.template: overview,
        ConsoleLogsPage.template: logs,
        ConsoleKeysPage.template: ConsoleKeysPage.source,
        ConsoleBackchannelPage.template: ConsoleBackchannelPage.source,
        ConsoleMFAPage.template: ConsoleMFAPage.source,
        ConsoleUsersPage.template: ConsoleUsersPage.source,
        ConsoleUserPage.template: ConsoleUserPage.source,
        ConsoleApplicationsPage.template: ConsoleApplicationsPage.source,
        ConsoleApplicationPage.template: ConsoleApplicationPage.source,
        ConsoleAPIsPage.template: ConsoleAPIsPage.source,
        ConsoleAPIPage.template: ConsoleAPIPage.source,
        ConsoleConnectionsPage.template: ConsoleConnectionsPage.source,
        ConsoleNewConnectionPage.template: ConsoleNewConnectionPage.source,
        ConsoleConnectionPage.template: ConsoleConnectionPage.source,
        ConsoleConnectionTrialPage.template: ConsoleConnectionTrialPage.source,
        ConsoleRulesPage.template: ConsoleRulesPage.source,
        ConsoleRulePage.template: ConsoleRulePage.source,
        ConsoleOrganizationsPage.template: ConsoleOrganizationsPage.source,
        ConsoleOrganizationPage.template: ConsoleOrganizationPage.source,
        "form_fields": formFields,
        "pager": pager,
        "create_form": createForm,
        "save_form": saveForm,
    ]

    /// The fields of a ``ConsoleFormView`` (the page's `form`), each labelled, with its hint and its error.
    static let formFields = """
        {{#problem}}<p class="message" role="alert">{{problem}}</p>{{/problem}}
        {{#groups}}<fieldset><legend>{{legend}}</legend>
        {{#fields}}
        {{#inputType}}<div class="field"><label for="{{id}}">{{label}}</label>
        <input id="{{id}}" name="{{name}}" type="{{inputType}}" value="{{value}}"{{#describedBy}} aria-describedby="{{describedBy}}"{{/describedBy}}{{#error}} aria-invalid="true"{{/error}}></div>{{/inputType}}
        {{#isTextarea}}<div class="field"><label for="{{id}}">{{label}}</label>
        <textarea id="{{id}}" name="{{name}}" rows="4"{{#describedBy}} aria-describedby="{{describedBy}}"{{/describedBy}}{{#error}} aria-invalid="true"{{/error}}>
        {{value}}</textarea></div>{{/isTextarea}}
        {{#isSelect}}<div class="field"><label for="{{id}}">{{label}}</label>
        <select id="{{id}}" name="{{name}}"{{#describedBy}} aria-describedby="{{describedBy}}"{{/describedBy}}{{#error}} aria-invalid="true"{{/error}}>
        {{#options}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{label}}</option>{{/options}}
        </select></div>{{/isSelect}}
        {{#isCheckbox}}<div class="check"><input id="{{id}}" name="{{name}}" type="checkbox" value="on"{{#checked}} checked{{/checked}}{{#describedBy}} aria-describedby="{{describedBy}}"{{/describedBy}}>
        <label for="{{id}}">{{label}}</label></div>{{/isCheckbox}}
        {{#isCheckboxes}}<fieldset class="choices"{{#describedBy}} aria-describedby="{{describedBy}}"{{/describedBy}}><legend>{{label}}</legend>
        {{#options}}<div class="check"><input id="{{id}}" name="{{name}}" type="checkbox" value="on"{{#selected}} checked{{/selected}}>
        <label for="{{id}}">{{label}}</label></div>{{/options}}
        </fieldset>{{/isCheckboxes}}
        {{#hint}}<p id="{{id}}-hint" class="hint">{{hint}}</p>{{/hint}}
        {{#error}}<p id="{{id}}-error" class="field-error">{{error}}</p>{{/error}}
        {{/fields}}
        </fieldset>{{/groups}}
        """

    /// The "Previous"/"Next" links of a table (the page's `pager`, a ``ConsolePager``).
    /// The create form under a list (users, applications, APIs): the page's `form`, posted to `{base}{createPath}`,
    /// under the heading `createHeading` and with the button `createButton`.
    static let createForm = """
        <form class="card settings" method="post" action="{{chrome.base}}{{createPath}}">
        <h2>{{createHeading}}</h2>
        <input type="hidden" name="csrf" value="{{chrome.csrf}}">
        {{#form}}{{> form_fields}}{{/form}}
        <button type="submit">{{createButton}}</button>
        </form>
        """

    /// The form of a record's page: the page's `form`, posted to its `path`.
    static let saveForm = """
        <form class="card settings" method="post" action="{{path}}">
        <input type="hidden" name="csrf" value="{{chrome.csrf}}">
        {{#form}}{{> form_fields}}{{/form}}
        <button type="submit">Save</button>
        </form>
        """

    static let pager = """
        {{#pager}}<nav class="pager" aria-label="Pages">{{#previous}}<a href="{{previous}}" rel="prev">← Previous</a>{{/previous}}
        <span>Page {{number}}</span>
        {{#next}}<a href="{{next}}" rel="next">Next →</a>{{/next}}</nav>{{/pager}}
        """

    static let layout = """
        <!doctype html>
        <html lang="en">
        <head>
        {{> head}}
        <title>{{page.title}} · {{tenant}} console</title>
        {{#page.refreshSeconds}}<meta http-equiv="refresh" content="{{page.refreshSeconds}}">{{/page.refreshSeconds}}
        </head>
        <body>
        <header>
        <p class="brand">{{tenant}} console</p>
        {{#page.chrome}}
        <nav aria-label="Console sections"><ul>
        {{#navigation}}<li><a href="{{href}}"{{#current}} aria-current="page"{{/current}}>{{name}}</a></li>{{/navigation}}
        </ul></nav>
        <form class="signout" method="post" action="{{base}}logout">
        <input type="hidden" name="csrf" value="{{csrf}}">
        <span class="admin">{{adminEmail}}</span>
        <button type="submit" class="link">Sign out</button>
        </form>
        {{/page.chrome}}
        </header>
        <main>
        <h1>{{page.title}}</h1>
        {{$content}}{{/content}}
        </main>
        </body>
        </html>

        """

    static let overview = """
        {{<layout}}{{$content}}{{#page}}
        <p class="hint">The last 24 hours, by hour (UTC), from the event log.</p>
        <div class="charts">
        {{#charts}}
        <section class="card">
        <h2>{{title}} <span class="total">{{total}}</span></h2>
        {{{svg}}}
        <ul class="legend">
        {{#legend}}<li><svg width="12" height="12" aria-hidden="true"><rect width="12" height="12" fill="{{color}}"/></svg> {{name}}: <strong>{{total}}</strong></li>{{/legend}}
        </ul>
        </section>
        {{/charts}}
        </div>
        {{/page}}{{/content}}{{/layout}}
        """

    static let logs = """
        {{<layout}}{{$content}}{{#page}}
        <form class="filters" method="get" action="{{chrome.base}}logs">
        {{#filter}}
        <div><label for="type">Event type</label>
        <input id="type" name="type" value="{{type}}" placeholder="e.g. fp, seccft" aria-describedby="type-hint"></div>
        <div><label for="user_id">User id</label><input id="user_id" name="user_id" value="{{userID}}"></div>
        <div><label for="client_id">Client id</label><input id="client_id" name="client_id" value="{{clientID}}"></div>
        <div class="check"><input id="follow" name="follow" type="checkbox" value="1"{{#follow}} checked{{/follow}}>
        <label for="follow">Follow (reload every 5 s)</label></div>
        {{/filter}}
        <div><button type="submit">Show</button></div>
        </form>
        <p id="type-hint" class="hint">Types are the event codes of the Management API's logs: s and f sign-ins, fp wrong
        password, seccft and seacft tokens, ciba_start_succeeded, gd_auth_succeed, sapi changes…</p>
        <div class="table"><table>
        <caption>Events, newest first (page {{pager.number}})</caption>
        <thead><tr><th scope="col">Date (UTC)</th><th scope="col">Type</th><th scope="col">Description</th>
        <th scope="col">User</th><th scope="col">Client</th><th scope="col">IP</th></tr></thead>
        <tbody>
        {{#rows}}<tr><td data-label="Date">{{date}}</td><td data-label="Type"><code>{{type}}</code></td>
        <td data-label="Description">{{description}}</td><td data-label="User">{{user}}</td>
        <td data-label="Client">{{client}}</td><td data-label="IP">{{ip}}</td></tr>
        {{/rows}}
        {{^rows}}<tr><td colspan="6">No events match.</td></tr>{{/rows}}
        </tbody></table></div>
        {{> pager}}
        {{/page}}{{/content}}{{/layout}}
        """

    static let css = """
        *{box-sizing:border-box}
        body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#eef1f5;\
        color:#1c2430}
        header{display:flex;flex-wrap:wrap;align-items:center;gap:.5rem 1.5rem;padding:.75rem 1rem;background:#1c2430;\
        color:#fff}
        header .brand{margin:0;font-weight:700}
        header nav ul{display:flex;flex-wrap:wrap;gap:.25rem 1rem;margin:0;padding:0;list-style:none}
        header a{color:#dbe4ff;text-decoration:none}
        header a[aria-current=page]{color:#fff;font-weight:600;text-decoration:underline}
        header a:focus,header button:focus{outline:2px solid #fbd38d;outline-offset:2px}
        .signout{margin-left:auto;display:flex;align-items:center;gap:.75rem}
        .signout .admin{color:#cbd5e0;overflow-wrap:anywhere}
        button{font:inherit;padding:.5rem 1rem;border:0;border-radius:.5rem;background:#2b59c3;color:#fff;\
        font-weight:600;cursor:pointer}
        button.link{white-space:nowrap;padding:.25rem .5rem;background:transparent;color:#dbe4ff;text-decoration:underline}
        main{max-width:72rem;margin:0 auto;padding:1rem}
        h1{margin:.5rem 0 1rem;font-size:1.5rem;overflow-wrap:anywhere}
        h2{margin:0 0 .5rem;font-size:1.1rem}
        .hint,.advice{color:#4a5568}
        .message{padding:.75rem;border-radius:.5rem;background:#fdecec;color:#8a1c1c}
        .charts{display:grid;grid-template-columns:repeat(auto-fit,minmax(20rem,1fr));gap:1rem}
        .card{padding:1rem;background:#fff;border-radius:.75rem;box-shadow:0 2px 12px rgba(0,0,0,.08)}
        .card svg[role=img]{display:block;width:100%;height:auto}
        .total{float:right;color:#4a5568;font-weight:600}
        .legend{display:flex;flex-wrap:wrap;gap:.25rem 1rem;margin:.5rem 0 0;padding:0;list-style:none;\
        font-size:.875rem}
        p{overflow-wrap:anywhere}
        label{display:block;font-weight:600;margin-bottom:.25rem}
        input,select,textarea{font:inherit;padding:.5rem;border:1px solid #6b7685;border-radius:.5rem;width:100%;\
        background:#fff;color:#1c2430}
        textarea{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.9rem}
        .field{margin:0 0 .75rem}
        .field-error{margin:.25rem 0 .75rem;color:#8a1c1c;font-weight:600}
        [aria-invalid=true]{border:2px solid #8a1c1c}
        .choices legend{font-weight:600}
        .secret{padding:.75rem;border-radius:.5rem;background:#fff8e1;color:#5c3d00}
        .secret code{display:block;margin-top:.5rem;font-size:1rem;overflow-wrap:anywhere}
        .inline{display:flex;flex-wrap:wrap;gap:.5rem;align-items:end}
        .inline .field{flex:1 1 12rem;min-width:0;margin:0}
        select{max-width:100%}
        .actions{display:flex;flex-wrap:wrap;gap:.5rem}
        .actions form{margin:0}
        section.card{margin:0 0 1rem}
        .details{display:grid;grid-template-columns:minmax(8rem,auto) 1fr;gap:.25rem 1rem;margin:0 0 1rem}
        .details dt{font-weight:600}
        .details dd{margin:0;min-width:0;overflow-wrap:anywhere}
        @media (max-width:40rem){.details{grid-template-columns:1fr}.details dd{margin-bottom:.5rem}}
        a{color:#2b59c3}
        .filters{display:grid;grid-template-columns:repeat(auto-fit,minmax(12rem,1fr));gap:.75rem;align-items:end}
        .filters .check{display:flex;gap:.5rem;align-items:center}
        .filters .check input{width:auto}
        .filters .check label{margin:0;font-weight:400}
        .table{overflow-x:auto;background:#fff;border-radius:.75rem;box-shadow:0 2px 12px rgba(0,0,0,.08)}
        table{width:100%;border-collapse:collapse;font-size:.875rem}
        caption{text-align:left;padding:.75rem;font-weight:600}
        th,td{padding:.5rem .75rem;text-align:left;vertical-align:top;border-top:1px solid #e2e8f0;\
        overflow-wrap:anywhere}
        code{font-size:.85rem}
        .pager{display:flex;justify-content:space-between;margin:1rem 0}
        .pager a{color:#2b59c3}
        .notice{padding:.75rem;border-radius:.5rem;background:#e6f4ea;color:#1e4620}
        button.danger{background:#9b2c2c;padding:.35rem .75rem}
        main>form{margin:0 0 1rem}
        td form{margin:0}
        .settings{max-width:40rem}
        fieldset{border:0;margin:0 0 1rem;padding:0}
        legend{font-weight:700;margin-bottom:.5rem}
        .check{display:flex;gap:.5rem;align-items:center;margin:.35rem 0}
        .check input{width:auto}
        .check label{margin:0;font-weight:400}
        @media (max-width:40rem){table,caption,thead,tbody,tr,th,td{display:block}thead{position:absolute;width:1px;height:1px;\
        overflow:hidden;clip:rect(0 0 0 0)}tr{border-top:1px solid #e2e8f0;padding:.5rem 0}td{border:0;padding:.15rem .75rem}\
        td[data-label]::before{content:attr(data-label) ": ";font-weight:600;color:#4a5568}}
        .visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
        """
}

/// The console's renderer and the pages of its failures, each saying what to do next.
enum ConsolePages {
    /// A time as the console's tables show it: `2026-11-26 20:19:41` (UTC, to the second).
    static func time(_ date: Date) -> String {
        let text = RFC3339Timestamp.string(from: date)
        return String(text.prefix(19)).replacingOccurrences(of: "T", with: " ")
    }

    /// The notice of the change a page was redirected from (`?done=saved`), among `notices`.
    static func notice(_ request: Request, _ notices: [String: String]) -> String? {
        request.uri.queryParameters["done"].flatMap { notices[String($0)] }
    }

    static let renderer = PageRenderer(tenant: "Warden", css: ConsoleTemplates.css, templates: ConsoleTemplates.all)

    /// A signed-in user without the `warden:admin` role, or blocked.
    static func forbidden(base: String) -> ErrorPage {
        ErrorPage(
            title: "Not an administrator",
            message: "This account may not use the Warden console.",
            advice: "Ask an administrator to give it the warden:admin role (or run `warden users create --admin` "
                + "on the server), then open \(base) again.",
            status: .forbidden)
    }

    /// A callback without this browser's unused state: an old, repeated or forged sign-in.
    static func staleLogin(base: String) -> ErrorPage {
        ErrorPage(
            title: "Sign-in expired",
            message: "This sign-in to the console was already used, has expired, or started in another browser.",
            advice: "Open \(base) to sign in again.", status: .badRequest)
    }

    /// The authorization server refused the sign-in, or the code could not be redeemed.
    static func loginFailed(base: String, reason: String) -> ErrorPage {
        ErrorPage(
            title: "Sign-in failed", message: "The sign-in to the console did not complete: \(reason)",
            advice: "Open \(base) to try again.", status: .badRequest)
    }

    /// A refusal of the Management API's (a record that does not exist, one that may not be changed, a change
    /// that a button rather than a form with fields made), with its status.
    static func refused(base: String, _ error: ManagementError) -> ErrorPage {
        let title =
            switch error.statusCode {
            case 404: "Not found"
            case 403: "Not allowed"
            default: "Not saved"
            }
        return ErrorPage(
            title: title, message: error.message,
            advice: "Nothing was changed. Go back to \(base), reload the page and try again.",
            status: .init(code: error.statusCode))
    }

    /// A console form posted without the session's CSRF token.
    static func forgedForm(base: String) -> ErrorPage {
        ErrorPage(
            title: "Form expired",
            message: "This form did not come from your console session, or the session changed since it was shown.",
            advice: "Nothing was changed. Go back to \(base), reload the page and submit it again.",
            status: .forbidden)
    }
}
