import Foundation
import Hummingbird
import WardenCore
import WardenWire

/// The applications page (SPEC §14 "applications"): the clients, paged, and the form that creates one through
/// `POST /api/v2/clients`'s validation.
struct ConsoleApplicationsPage: Page {
    static let template = "console_applications"
    let title = "Applications"
    var chrome: ConsoleChrome
    var rows: [Row]
    var total: Int
    var pager: ConsolePager
    var form: ConsoleFormView
    let createPath = "applications"
    let createHeading = "Create an application"
    let createButton = "Create the application"

    struct Row: Sendable {
        var href: String
        var name: String
        var clientID: String
        var appType: String
        var authentication: String
    }

    static let createForm = ConsoleForm([
        .init(
            legend: "New application",
            fields: [
                ConsoleField("name", "Name", .text(whenEmpty: .emptyString)),
                ConsoleField("app_type", "Application type", .select(ConsoleApplicationPage.appTypes)),
            ])
    ])

    static let source = """
        {{<layout}}{{$content}}{{#page}}
        <div class="table"><table>
        <caption>Applications ({{total}}, page {{pager.number}})</caption>
        <thead><tr><th scope="col">Name</th><th scope="col">Client id</th><th scope="col">Type</th>
        <th scope="col">Authentication</th></tr></thead>
        <tbody>
        {{#rows}}<tr><td data-label="Name"><a href="{{href}}">{{name}}</a></td><td data-label="Client id"><code>{{clientID}}</code></td>
        <td data-label="Type">{{appType}}</td><td data-label="Authentication">{{authentication}}</td></tr>
        {{/rows}}
        {{^rows}}<tr><td colspan="4">No application.</td></tr>{{/rows}}
        </tbody></table></div>
        {{> pager}}
        {{> create_form}}
        {{/page}}{{/content}}{{/layout}}
        """
}

/// An application's page (SPEC §14, §4): every client field of SPEC §4 in one form (PATCH's validation), its
/// client grants, and "Rotate secret"; a new secret is shown once, on the answer to the form that made it.
struct ConsoleApplicationPage: Page {
    static let template = "console_application"
    var title: String
    var chrome: ConsoleChrome
    var path: String
    var clientID: String
    var secret: String?
    var usesSecret: Bool
    var notice: String?
    var form: ConsoleFormView
    var grants: [Grant]
    var grantForm: ConsoleFormView
    var hasAPIs: Bool

    struct Grant: Sendable {
        var id: String
        var audience: String
        var scope: String
    }

    static let appTypes =
        [ConsoleField.Option(value: "", label: "(not set)")]
        + ClientsController.appTypes.map { .init(value: $0.rawValue, label: $0.rawValue) }

    /// The fields of SPEC §4 a form can carry (private_key_jwt keys are registered through the Management API).
    static let editForm = ConsoleForm([
        .init(
            legend: "Application",
            fields: [
                ConsoleField("name", "Name", .text(whenEmpty: .emptyString)),
                ConsoleField("description", "Description"),
                ConsoleField("app_type", "Application type", .select(appTypes)),
                ConsoleField(
                    "is_first_party", "First-party (no consent page)", .checkbox),
                ConsoleField(
                    "grant_types", "Grant types",
                    .checkboxes(ConsoleField.options(ClientsController.grantTypes.map(\.rawValue)))),
                ConsoleField(
                    "token_endpoint_auth_method", "Token endpoint authentication",
                    .select(
                        ConsoleField.options(ClientsController.authMethods.map(\.rawValue)) + [
                            .init(value: "", label: "private_key_jwt (keys registered through the Management API)")
                        ]),
                    hint: "none for public clients (PKCE); a secret method gets a secret, shown once."),
            ]),
        .init(
            legend: "Addresses",
            fields: [
                ConsoleField(
                    "callbacks", "Allowed callback URLs", .lines(), hint: "Separate them with spaces or new lines."),
                ConsoleField(
                    "allowed_logout_urls", "Allowed logout URLs", .lines(),
                    hint: "Separate them with spaces or new lines."),
                ConsoleField("allowed_origins", "Allowed origins", .lines()),
                ConsoleField("web_origins", "Web origins", .lines()),
                ConsoleField(
                    "initiate_login_uri", "Initiate login URI",
                    hint: "Where an organization's invitation link sends people (SPEC §19)."),
            ]),
        .init(
            legend: "Organizations",
            fields: [
                ConsoleField(
                    "organization_usage", "Organizations at login",
                    .select(
                        [.init(value: "", label: "(default: deny)")]
                            + ConsoleField.options(OrganizationUsage.all.map(\.rawValue)))),
                ConsoleField(
                    "organization_require_behavior", "When required and none is named",
                    .select(
                        [.init(value: "", label: "(default: no_prompt)")]
                            + ConsoleField.options(OrganizationRequireBehavior.all.map(\.rawValue)))),
            ]),
        .init(
            legend: "Tokens",
            fields: [
                ConsoleField(
                    "jwt_configuration.alg", "ID token signing algorithm",
                    .select(
                        [.init(value: "", label: "(default)")]
                            + ConsoleField.options(SigningAlgorithm.allCases.map(\.rawValue)))),
                ConsoleField("jwt_configuration.lifetime_in_seconds", "ID token lifetime (seconds)", .number()),
                ConsoleField(
                    "refresh_token.rotation_type", "Refresh token rotation",
                    .select(
                        [.init(value: "", label: "(default)")]
                            + ConsoleField.options(ClientsController.rotationTypes.map(\.rawValue)))),
                ConsoleField(
                    "refresh_token.expiration_type", "Refresh token expiration",
                    .select(
                        [.init(value: "", label: "(default)")]
                            + ConsoleField.options(ClientsController.expirationTypes.map(\.rawValue)))),
                ConsoleField("refresh_token.token_lifetime", "Refresh token lifetime (seconds)", .number()),
                ConsoleField("refresh_token.leeway", "Refresh token reuse leeway (seconds)", .number()),
            ]),
        .init(
            legend: "CIBA",
            fields: [
                ConsoleField(
                    "backchannel_token_delivery_mode", "Token delivery mode",
                    .select(
                        [.init(value: "", label: "(default: poll)")]
                            + ConsoleField.options(ClientsController.deliveryModes.map(\.rawValue)))),
                ConsoleField(
                    "backchannel_client_notification_endpoint", "Client notification endpoint",
                    hint: "Required in ping mode."),
            ]),
        .init(
            legend: "Session transfer (native to web)",
            fields: [
                ConsoleField(
                    "session_transfer.can_create_session_transfer_token", "May create session transfer tokens",
                    .checkbox),
                ConsoleField(
                    "session_transfer.allowed_authentication_methods", "Accepted on this web application by",
                    .checkboxes(ConsoleField.options(["cookie", "query"]))),
                ConsoleField(
                    "session_transfer.enforce_device_binding", "Device binding",
                    .select(
                        [.init(value: "", label: "(default: ip)")]
                            + ConsoleField.options(DeviceBinding.enforced.map(\.rawValue)))),
                ConsoleField("session_transfer.allow_refresh_token", "Allow a refresh token", .checkbox),
                ConsoleField(
                    "session_transfer.enforce_cascade_revocation", "Revoke with the native session", .checkbox),
            ]),
    ])

    /// A client grant: an API (by identifier) and scopes, as `POST /api/v2/client-grants` takes them.
    static func grantForm(_ apis: [ResourceServer]) -> ConsoleForm {
        ConsoleForm([
            .init(
                legend: "Grant an API",
                fields: [
                    ConsoleField(
                        "audience", "API", .select(apis.map { .init(value: $0.identifier, label: $0.name) })),
                    ConsoleField("scope", "Scopes", .lines(), hint: "Scopes the API defines, separated by spaces."),
                ])
        ])
    }

    static let source = """
        {{<layout}}{{$content}}{{#page}}
        {{#notice}}<p class="notice" role="status">{{notice}}</p>{{/notice}}
        {{#secret}}<div class="secret" role="status"><strong>The client secret, shown this once:</strong>
        <code id="client-secret">{{secret}}</code></div>{{/secret}}
        <p><a href="{{chrome.base}}applications">← All applications</a> · Client id: <code id="client-id">{{clientID}}</code></p>
        {{> save_form}}
        {{#usesSecret}}<form class="card settings" method="post" action="{{path}}/rotate-secret">
        <h2>Client secret</h2>
        <input type="hidden" name="csrf" value="{{chrome.csrf}}">
        <p class="hint">A new secret replaces the current one at once; it is shown once.</p>
        <button type="submit" class="danger">Rotate secret</button>
        </form>{{/usesSecret}}
        <section class="card"><h2>Client grants</h2>
        <div class="table"><table><caption>APIs this application may call with client credentials</caption>
        <thead><tr><th scope="col">API</th><th scope="col">Scopes</th><th scope="col"><span class="visually-hidden">Action</span></th></tr></thead>
        <tbody>
        {{#grants}}<tr><td data-label="API"><code>{{audience}}</code></td><td data-label="Scopes">{{scope}}</td><td>
        <form method="post" action="{{path}}/grants/{{id}}/delete"><input type="hidden" name="csrf" value="{{chrome.csrf}}">
        <button type="submit" class="danger" aria-label="Remove the grant of {{audience}}">Remove</button></form></td></tr>
        {{/grants}}
        {{^grants}}<tr><td colspan="3">No grant.</td></tr>{{/grants}}
        </tbody></table></div>
        {{#hasAPIs}}<form method="post" action="{{path}}/grants">
        <input type="hidden" name="csrf" value="{{chrome.csrf}}">
        {{#grantForm}}{{> form_fields}}{{/grantForm}}
        <button type="submit">Grant</button>
        </form>{{/hasAPIs}}
        </section>
        {{/page}}{{/content}}{{/layout}}
        """
}

extension ConsoleController {
    var clientsAPI: ClientsController { ClientsController(runtime: runtime) }

    func addApplicationRoutes(to admin: RouterGroup<WardenRequestContext>) {
        admin.get("applications") { request, context in
            await page(request, context, current: "Applications") { chrome in
                try await applicationsPage(request, chrome: chrome, form: ConsoleApplicationsPage.createForm)
            }
        }
        admin.post("applications") { request, context in
            let create = ConsoleApplicationsPage.createForm
            return await submit(
                request, context, "Create a client", current: "Applications",
                refused: { chrome, form, error in
                    try await applicationsPage(
                        request, chrome: chrome, form: create.again({ form[$0] }, refused: error))
                }
            ) { form, chrome in
                let (client, secret) = try await clientsAPI.create(create.body { form[$0] })
                try await runtime.tenantChanged()
                return .page(
                    try await applicationPage(
                        try await clientsAPI.record(id: client.clientID), chrome: chrome, secret: secret,
                        notice: "The application was created."))
            }
        }
        admin.get("applications/:id") { request, context in
            await page(request, context, current: "Applications") { chrome in
                let notices = ["saved": "The application was saved.", "granted": "The client grants were saved."]
                return try await applicationPage(
                    try await clientRecord(context), chrome: chrome,
                    notice: ConsolePages.notice(request, notices))
            }
        }
        admin.post("applications/:id") { request, context in
            let edit = ConsoleApplicationPage.editForm
            return await submit(
                request, context, "Update a client", current: "Applications",
                refused: { chrome, form, error in
                    try await applicationPage(
                        try await clientRecord(context), chrome: chrome,
                        form: edit.again({ form[$0] }, refused: error))
                }
            ) { form, _ in
                var record = try clientsAPI.changeable(try await clientRecord(context))
                try await clientsAPI.update(&record, with: edit.body { form[$0] })
                try await runtime.tenantChanged()
                return .redirect(applicationPath(record.client.clientID) + "?done=saved")
            }
        }
        admin.post("applications/:id/rotate-secret") { request, context in
            await submit(request, context, "Rotate a client secret", current: "Applications") { _, chrome in
                var record = try clientsAPI.changeable(try await clientRecord(context))
                let secret = try await clientsAPI.rotateSecret(&record)
                try await runtime.tenantChanged()
                return .page(
                    try await applicationPage(
                        record, chrome: chrome, secret: secret, notice: "The secret was rotated."))
            }
        }
        addGrantRoutes(to: admin)
    }

    /// `POST /admin/applications/{id}/grants` (`POST /api/v2/client-grants`) and the removal of a grant.
    private func addGrantRoutes(to admin: RouterGroup<WardenRequestContext>) {
        admin.post("applications/:id/grants") { request, context in
            await submit(
                request, context, "Create client grant", current: "Applications",
                refused: { chrome, form, error in
                    let apis = try await grantableAPIs()
                    let grant = ConsoleApplicationPage.grantForm(apis)
                    return try await applicationPage(
                        try await clientRecord(context), chrome: chrome,
                        grantForm: grant.again({ form[$0] }, refused: error))
                }
            ) { form, _ in
                let record = try await clientRecord(context)
                var body = ConsoleApplicationPage.grantForm([]).body { form[$0] }
                body["client_id"] = .string(record.client.clientID)
                _ = try await ClientGrantsController(runtime: runtime).create(body)
                try await runtime.tenantChanged()
                return .redirect(applicationPath(record.client.clientID) + "?done=granted")
            }
        }
        admin.post("applications/:id/grants/:grant/delete") { request, context in
            await change(request, context, "Delete client grant") { _ in
                let record = try await clientRecord(context)
                let id = try ManagementRequest.parameter("grant", of: context)
                guard let grant = try await runtime.store.clientGrant(id: id),
                    grant.clientID == record.client.clientID,
                    try await runtime.store.deleteClientGrant(id: id)
                else { throw ConsolePages.refused(base: base, ClientGrantsController.notFound) }
                try await runtime.tenantChanged()
                return applicationPath(record.client.clientID) + "?done=granted"
            }
        }
    }

    /// The console address of an application's page.
    func applicationPath(_ clientID: String) -> String {
        base + "applications/" + Self.pathSegment(clientID)
    }

    private func clientRecord(_ context: WardenRequestContext) async throws -> ClientRecord {
        try await shown { try await clientsAPI.record(id: ManagementRequest.parameter("id", of: context)) }
    }

    /// The APIs a client may be granted: all but the system API.
    private func grantableAPIs() async throws -> [ResourceServer] {
        try await runtime.store.resourceServers(page: nil).items.filter { !$0.isSystem }
    }

    private func applicationsPage(
        _ request: Request, chrome: ConsoleChrome, form: ConsoleForm
    ) async throws -> ConsoleApplicationsPage {
        let page = ConsolePager.request(ManagementRequest.query(request))
        let found = try await runtime.store.clients(page: page)
        let rows = found.items.map { record in
            ConsoleApplicationsPage.Row(
                href: applicationPath(record.client.clientID), name: DisplayText.clean(record.client.name),
                clientID: record.client.clientID, appType: record.client.appType?.rawValue ?? "",
                authentication: record.client.tokenEndpointAuthMethod?.rawValue ?? "private_key_jwt")
        }
        return ConsoleApplicationsPage(
            chrome: chrome, rows: rows, total: found.total,
            pager: ConsolePager(
                base + "applications", [], page: page, hasMore: page.offset + rows.count < found.total),
            form: ConsoleFormView(form))
    }

    /// The page of `record`; `form` and `grantForm` when a submission of theirs was refused, otherwise the stored
    /// values; `secret` when one was just made.
    private func applicationPage(
        _ record: ClientRecord, chrome: ConsoleChrome, form: ConsoleForm? = nil, grantForm: ConsoleForm? = nil,
        secret: String? = nil, notice: String? = nil
    ) async throws -> ConsoleApplicationPage {
        let client = record.client
        let apis = try await grantableAPIs()
        let grants = try await runtime.store.clientGrants(clientID: client.clientID, audience: nil, page: nil).items
        return ConsoleApplicationPage(
            title: DisplayText.clean(client.name), chrome: chrome, path: applicationPath(client.clientID),
            clientID: client.clientID, secret: secret, usesSecret: ClientsController.usesSecret(client),
            notice: notice,
            form: ConsoleFormView(
                try form ?? ConsoleApplicationPage.editForm.showing(ClientsController.representation(client))),
            grants: grants.map {
                .init(id: $0.id, audience: $0.audience, scope: $0.scope.joined(separator: " "))
            },
            grantForm: ConsoleFormView(grantForm ?? ConsoleApplicationPage.grantForm(apis)),
            hasAPIs: !apis.isEmpty)
    }
}
