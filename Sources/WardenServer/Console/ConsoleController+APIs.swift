import Foundation
import Hummingbird
import WardenCore
import WardenWire

/// The APIs page (SPEC §14 "APIs", §9 `/resource-servers`): the APIs tokens are issued for, paged, and the form
/// that creates one through `POST /api/v2/resource-servers`'s validation.
struct ConsoleAPIsPage: Page {
    static let template = "console_apis"
    let title = "APIs"
    var chrome: ConsoleChrome
    var rows: [Row]
    var total: Int
    var pager: ConsolePager
    var form: ConsoleFormView
    let createPath = "apis"
    let createHeading = "Create an API"
    let createButton = "Create the API"

    struct Row: Sendable {
        var href: String?
        var name: String
        var identifier: String
        var scopes: String
        var rbac: String
    }

    static let createForm = ConsoleForm([
        .init(
            legend: "New API",
            fields: [
                ConsoleField(
                    "identifier", "Identifier", .text(whenEmpty: .emptyString),
                    hint: "The audience of its tokens, usually a URL; it cannot be changed later."),
                ConsoleField("name", "Name"),
            ])
    ])

    static let source = """
        {{<layout}}{{$content}}{{#page}}
        <div class="table"><table>
        <caption>APIs ({{total}}, page {{pager.number}})</caption>
        <thead><tr><th scope="col">Name</th><th scope="col">Identifier</th><th scope="col">Scopes</th>
        <th scope="col">RBAC</th></tr></thead>
        <tbody>
        {{#rows}}<tr><td data-label="Name">{{#href}}<a href="{{href}}">{{name}}</a>{{/href}}{{^href}}{{name}} (system){{/href}}</td>
        <td data-label="Identifier"><code>{{identifier}}</code></td><td data-label="Scopes">{{scopes}}</td>
        <td data-label="RBAC">{{rbac}}</td></tr>
        {{/rows}}
        {{^rows}}<tr><td colspan="4">No API.</td></tr>{{/rows}}
        </tbody></table></div>
        {{> pager}}
        {{> create_form}}
        {{/page}}{{/content}}{{/layout}}
        """
}

/// An API's page: the resource server fields of SPEC §9 in one form (PATCH's validation).
struct ConsoleAPIPage: Page {
    static let template = "console_api"
    var title: String
    var chrome: ConsoleChrome
    var path: String
    var identifier: String
    var notice: String?
    var form: ConsoleFormView

    static let editForm = ConsoleForm([
        .init(
            legend: "API",
            fields: [
                ConsoleField("name", "Name"),
                ConsoleField(
                    "scopes", "Scopes", .lines(keys: ["value", "description"]),
                    hint: "One a line: the scope, a space, then its description."),
                ConsoleField(
                    "authorization_details", "Rich authorization request types", .lines(keys: ["type"]),
                    hint: "The authorization_details types this API accepts, one a line."),
                ConsoleField(
                    "signing_alg", "Access token signing algorithm",
                    .select(ConsoleField.options(SigningAlgorithm.allCases.map(\.rawValue)))),
                ConsoleField("token_lifetime", "Access token lifetime (seconds)", .number()),
            ]),
        .init(
            legend: "Access policy",
            fields: [
                ConsoleField(
                    "enforce_policies", "Enforce RBAC: users get only the scopes their roles hold", .checkbox),
                ConsoleField("allow_offline_access", "Allow offline access (refresh tokens)", .checkbox),
                ConsoleField(
                    "skip_consent_for_verifiable_first_party_clients", "Skip consent for first-party applications",
                    .checkbox),
            ]),
    ])

    static let source = """
        {{<layout}}{{$content}}{{#page}}
        {{#notice}}<p class="notice" role="status">{{notice}}</p>{{/notice}}
        <p><a href="{{chrome.base}}apis">← All APIs</a> · Identifier: <code>{{identifier}}</code></p>
        {{> save_form}}
        {{/page}}{{/content}}{{/layout}}
        """
}

extension ConsoleController {
    func addAPIRoutes(to admin: RouterGroup<WardenRequestContext>) {
        let servers = ResourceServersController(runtime: runtime)
        admin.get("apis") { request, context in
            await page(request, context, current: "APIs") { chrome in
                try await apisPage(request, chrome: chrome, form: ConsoleAPIsPage.createForm)
            }
        }
        admin.post("apis") { request, context in
            let create = ConsoleAPIsPage.createForm
            return await submit(
                request, context, "Create a resource server", current: "APIs",
                refused: { chrome, form, error in
                    try await apisPage(
                        request, chrome: chrome, form: create.again({ form[$0] }, refused: error))
                }
            ) { form, _ in
                let server = try await servers.create(create.body { form[$0] })
                try await runtime.tenantChanged()
                return .redirect(apiPath(server) + "?done=created")
            }
        }
        admin.get("apis/:id") { request, context in
            await page(request, context, current: "APIs") { chrome in
                let notices = ["created": "The API was created.", "saved": "The API was saved."]
                return try await apiPage(
                    try await changeableAPI(context, servers), chrome: chrome,
                    notice: ConsolePages.notice(request, notices))
            }
        }
        admin.post("apis/:id") { request, context in
            let edit = ConsoleAPIPage.editForm
            return await submit(
                request, context, "Update a resource server", current: "APIs",
                refused: { chrome, form, error in
                    try await apiPage(
                        try await changeableAPI(context, servers), chrome: chrome,
                        form: edit.again({ form[$0] }, refused: error))
                }
            ) { form, _ in
                var server = try await changeableAPI(context, servers)
                try await servers.update(&server, with: edit.body { form[$0] })
                try await runtime.tenantChanged()
                return .redirect(apiPath(server) + "?done=saved")
            }
        }
    }

    private func apiPath(_ server: ResourceServer) -> String {
        base + "apis/" + Self.pathSegment(server.id)
    }

    /// The API of the path, unless it is missing (the 404 page) or the system API (the Management API's 403).
    private func changeableAPI(
        _ context: WardenRequestContext, _ servers: ResourceServersController
    ) async throws -> ResourceServer {
        try await shown {
            try servers.changeable(try await servers.server(id: ManagementRequest.parameter("id", of: context)))
        }
    }

    private func apisPage(_ request: Request, chrome: ConsoleChrome, form: ConsoleForm) async throws -> ConsoleAPIsPage
    {
        let page = ConsolePager.request(ManagementRequest.query(request))
        let found = try await runtime.store.resourceServers(page: page)
        let rows = found.items.map { server in
            ConsoleAPIsPage.Row(
                href: server.isSystem ? nil : apiPath(server), name: DisplayText.clean(server.name),
                identifier: server.identifier, scopes: server.scopes.map(\.value).joined(separator: " "),
                rbac: server.enforcePolicies ? "Enforced" : "Off")
        }
        return ConsoleAPIsPage(
            chrome: chrome, rows: rows, total: found.total,
            pager: ConsolePager(base + "apis", [], page: page, hasMore: page.offset + rows.count < found.total),
            form: ConsoleFormView(form))
    }

    private func apiPage(
        _ server: ResourceServer, chrome: ConsoleChrome, form: ConsoleForm? = nil, notice: String? = nil
    ) async throws -> ConsoleAPIPage {
        ConsoleAPIPage(
            title: DisplayText.clean(server.name), chrome: chrome, path: apiPath(server),
            identifier: server.identifier, notice: notice,
            form: ConsoleFormView(
                try form ?? ConsoleAPIPage.editForm.showing(ManagementResponse.object(of: server))))
    }
}
