import Foundation
import WardenCore
import WardenWire

/// The organizations page (SPEC §14, §19): every organization by name, and the form that adds one.
struct ConsoleOrganizationsPage: Page {
    static let template = "console_organizations"
    let title = "Organizations"
    var chrome: ConsoleChrome
    var rows: [Row]
    var pager: ConsolePager
    var notice: String?
    var form: ConsoleFormView
    let createPath = "organizations"
    let createHeading = "Add an organization"
    let createButton = "Add the organization"

    struct Row: Sendable {
        var href: String
        var name: String
        var displayName: String
        var id: String
    }

    /// The organization's fields; the branding's colors are flat here (`branding.primary`), nested in the API.
    static let form = ConsoleForm([
        .init(
            legend: "Organization",
            fields: [
                ConsoleField(
                    "name", "Name", .text(whenEmpty: .emptyString),
                    hint: "1 to 50 lowercase letters, digits, - or _: what /authorize?organization= may name."),
                ConsoleField("display_name", "Display name", hint: "Shown on the login page."),
            ]),
        .init(
            legend: "Branding",
            fields: [
                ConsoleField("branding.logo_url", "Logo URL", hint: "An https URL."),
                ConsoleField("branding.primary", "Primary color", hint: "E.g. #0059d6."),
                ConsoleField("branding.page_background", "Page background color"),
            ]),
    ])

    static let source = """
        {{<layout}}{{$content}}{{#page}}
        {{#notice}}<p class="notice" role="status">{{notice}}</p>{{/notice}}
        <div class="table"><table>
        <caption>Organizations, by name</caption>
        <thead><tr><th scope="col">Name</th><th scope="col">Display name</th><th scope="col">Id</th></tr></thead>
        <tbody>
        {{#rows}}<tr><td data-label="Name"><a href="{{href}}">{{name}}</a></td>
        <td data-label="Display name">{{displayName}}</td><td data-label="Id"><code>{{id}}</code></td></tr>
        {{/rows}}
        {{^rows}}<tr><td colspan="3">No organization yet.</td></tr>{{/rows}}
        </tbody></table></div>
        {{> pager}}
        {{> create_form}}
        {{/page}}{{/content}}{{/layout}}
        """
}

/// An organization's page: its settings, members, enabled connections and invitations, each with the form that
/// changes it; the same validation as the Management API.
struct ConsoleOrganizationPage: Page {
    static let template = "console_organization"
    var title: String
    var chrome: ConsoleChrome
    var path: String
    var notice: String?
    var form: ConsoleFormView
    var members: [Member]
    var connections: [EnabledConnection]
    var choices: [ConsoleField.Option]
    var invitations: [Invitation]
    var clients: [ConsoleField.Option]
    /// An invitation link just made, shown once.
    var invitationURL: String?

    struct Member: Sendable {
        var userID: String
        var label: String
    }

    struct EnabledConnection: Sendable {
        var id: String
        var name: String
        var assigns: Bool
    }

    struct Invitation: Sendable {
        var id: String
        var email: String
        var expires: String
    }

    static let source = """
        {{<layout}}{{$content}}{{#page}}
        <p><a href="{{chrome.base}}organizations">← All organizations</a></p>
        {{#notice}}<p class="notice" role="status">{{notice}}</p>{{/notice}}
        {{#invitationURL}}<p class="notice" role="status">Invitation link (also e-mailed): <code>{{invitationURL}}</code></p>{{/invitationURL}}
        {{> save_form}}
        <section class="card"><h2>Members</h2>
        <ul>{{#members}}<li>{{label}} <form class="inline" method="post" action="{{path}}/members/remove">
        <input type="hidden" name="csrf" value="{{chrome.csrf}}"><input type="hidden" name="user_id" value="{{userID}}">
        <button type="submit" class="danger" aria-label="Remove {{label}}">Remove</button></form></li>{{/members}}
        {{^members}}<li>No member yet.</li>{{/members}}</ul>
        <form method="post" action="{{path}}/members"><input type="hidden" name="csrf" value="{{chrome.csrf}}">
        <div class="field"><label for="member">User id or e-mail address</label><input id="member" name="member"></div>
        <button type="submit">Add the member</button></form></section>
        <section class="card"><h2>Connections</h2>
        <ul>{{#connections}}<li>{{name}}{{#assigns}} (membership on login){{/assigns}}
        <form class="inline" method="post" action="{{path}}/connections/remove">
        <input type="hidden" name="csrf" value="{{chrome.csrf}}"><input type="hidden" name="connection_id" value="{{id}}">
        <button type="submit" class="danger" aria-label="Disable {{name}}">Disable</button></form></li>{{/connections}}
        {{^connections}}<li>No connection enabled.</li>{{/connections}}</ul>
        <form method="post" action="{{path}}/connections"><input type="hidden" name="csrf" value="{{chrome.csrf}}">
        <div class="field"><label for="connection_id">Connection</label><select id="connection_id" name="connection_id">
        {{#choices}}<option value="{{value}}">{{label}}</option>{{/choices}}</select></div>
        <div class="check"><input id="assign" name="assign_membership_on_login" type="checkbox" value="on">
        <label for="assign">Make everyone signing in through it a member</label></div>
        <button type="submit">Enable the connection</button></form></section>
        <section class="card"><h2>Invitations</h2>
        <ul>{{#invitations}}<li>{{email}}, until {{expires}}
        <form class="inline" method="post" action="{{path}}/invitations/remove">
        <input type="hidden" name="csrf" value="{{chrome.csrf}}"><input type="hidden" name="invitation_id" value="{{id}}">
        <button type="submit" class="danger" aria-label="Delete the invitation of {{email}}">Delete</button></form></li>{{/invitations}}
        {{^invitations}}<li>No invitation waiting.</li>{{/invitations}}</ul>
        <form method="post" action="{{path}}/invitations"><input type="hidden" name="csrf" value="{{chrome.csrf}}">
        <div class="field"><label for="invitee">E-mail address</label><input id="invitee" name="email" type="email"></div>
        <div class="field"><label for="inviter">Invited by (name)</label><input id="inviter" name="inviter"></div>
        <div class="field"><label for="client_id">Application</label><select id="client_id" name="client_id">
        {{#clients}}<option value="{{value}}">{{label}}</option>{{/clients}}</select></div>
        <p class="hint">The application needs an initiate login URI: the link opens it.</p>
        <button type="submit">Send the invitation</button></form></section>
        <form method="post" action="{{path}}/delete"><input type="hidden" name="csrf" value="{{chrome.csrf}}">
        <button type="submit" class="danger">Delete the organization</button></form>
        {{/page}}{{/content}}{{/layout}}
        """
}
