import Foundation
import Hummingbird
import WardenCore
import WardenWire

/// The console's Connections pages (SPEC §14, §15 "Console"): every change goes through
/// ``ConnectionsController``'s shared validation and writes, as `POST`, `PATCH` and `DELETE /api/v2/connections`
/// would, and is logged as `sapi`/`fapi` with the admin's user id.
extension ConsoleController {
    func addConnectionRoutes(to admin: RouterGroup<WardenRequestContext>) {
        let connections = ConnectionsController(runtime: runtime)
        admin.get("connections") { request, context in
            await page(request, context, current: "Connections") { chrome in
                try await connectionsPage(request, chrome: chrome, connections)
            }
        }
        admin.get("connections/new") { request, context in
            await page(request, context, current: "Connections") { chrome in
                let preset = ConsoleConnectionPreset.named(request.uri.queryParameters["preset"].map(String.init))
                return newConnectionPage(preset, chrome: chrome, form: preset.form)
            }
        }
        admin.post("connections/new") { request, context in
            let preset = ConsoleConnectionPreset.named(request.uri.queryParameters["preset"].map(String.init))
            return await submit(
                request, context, "Create a connection", current: "Connections",
                refused: { chrome, form, error in
                    newConnectionPage(preset, chrome: chrome, form: preset.form.again({ form[$0] }, refused: error))
                }
            ) { form, _ in
                let connection = try await connections.create(preset.body { form[$0] })
                return .redirect(connectionPath(connection) + "?done=created")
            }
        }
        admin.get("connections/:id") { request, context in
            await page(request, context, current: "Connections") { chrome in
                let notices = [
                    "created": "The connection was created. Enable it for the applications that should offer it.",
                    "saved": "The connection was saved.", "clients": "The applications were saved.",
                ]
                return try await connectionPage(
                    try await connection(context, connections), chrome: chrome, connections,
                    notice: ConsolePages.notice(request, notices))
            }
        }
        addConnectionChangeRoutes(to: admin, connections)
        addConnectionTrialRoutes(to: admin, connections)
    }

    /// "Try" (SPEC §15 "Console"): `POST …/try` sends the admin's browser through the connection's upstream, and
    /// the callback returns to `GET …/try?result=` with what Warden would store; nobody is signed in.
    private func addConnectionTrialRoutes(
        to admin: RouterGroup<WardenRequestContext>, _ connections: ConnectionsController
    ) {
        admin.post("connections/:id/try") { request, context in
            await signedIn(request, context) { session, _ in
                let form = try await HostedPages.readForm(request)
                guard let field = form["csrf"], SecretHash.constantTimeEquals(field, session.csrf) else {
                    throw ConsolePages.forgedForm(base: base)
                }
                let connection = try await connection(context, connections)
                guard !connection.isDatabase else {
                    throw ConsolePages.refused(
                        base: base, .operationNotAllowed("The database connection signs in with passwords"))
                }
                let trial = AuthorizationRequest(
                    clientID: Bootstrap.consoleClientID, redirectURI: callback, responseMode: .query, state: nil,
                    nonce: nil, scope: ["openid"], audience: nil, codeChallenge: nil, prompt: [], maxAge: nil)
                return try await federation.start(
                    trial, transactionID: "", connection: connection, request: request, purpose: .trial)
            }
        }
        admin.get("connections/:id/try") { request, context in
            await page(request, context, current: "Connections") { chrome in
                let connection = try await connection(context, connections)
                let id = request.uri.queryParameters["result"].map(String.init) ?? ""
                guard let outcome = try await federation.trials.outcome(id: id),
                    outcome.connectionID == connection.id
                else {
                    throw ConsolePages.refused(
                        base: base, .notFound("connection_trial", "This result expired: try the connection again."))
                }
                return ConsoleConnectionTrialPage(
                    title: "Try \(DisplayText.clean(connection.displayName))", chrome: chrome,
                    path: connectionPath(connection), failure: outcome.failure.map(DisplayText.clean),
                    userID: outcome.userID.map(DisplayText.clean), identity: Self.details(of: outcome.identity))
            }
        }
    }

    /// An identity as `name: value` lines: its members, then each of its `profileData`.
    private static func details(of identity: JSONValue?) -> [ConsoleUserPage.Detail] {
        let members = identity?.objectValue ?? [:]
        var lines = members.filter { $0.key != "profileData" }.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        lines += (members["profileData"]?.objectValue ?? [:]).sorted { $0.key < $1.key }.map {
            ("profileData.\($0.key)", $0.value)
        }
        return lines.map { name, value in
            ConsoleUserPage.Detail(name: name, value: DisplayText.clean(value.stringValue ?? value.serialized))
        }
    }

    /// The edit form, the applications form and the delete button of a connection's page.
    private func addConnectionChangeRoutes(
        to admin: RouterGroup<WardenRequestContext>, _ connections: ConnectionsController
    ) {
        admin.post("connections/:id") { request, context in
            await submit(
                request, context, "Update a connection", current: "Connections",
                refused: { chrome, form, error in
                    let connection = try await connection(context, connections)
                    let edit =
                        connection.isDatabase
                        ? ConsoleDatabaseSettings.form : ConsoleConnectionPage.editForm(connection.strategy)
                    return try await connectionPage(
                        connection, chrome: chrome, connections, form: edit.again({ form[$0] }, refused: error))
                }
            ) { form, _ in
                var connection = try await connection(context, connections)
                let body: [String: JSONValue] =
                    connection.isDatabase
                    ? ["options": .object(ConsoleDatabaseSettings.options(connection.options) { form[$0] })]
                    : Self.edited(connection, form)
                try await connections.update(&connection, with: body)
                return .redirect(connectionPath(connection) + "?done=saved")
            }
        }
        admin.post("connections/:id/clients") { request, context in
            await change(request, context, "Update a connection's clients") { form in
                let connection = try await connection(context, connections)
                let clients = try await runtime.store.clients(page: nil).items
                let body = ConsoleConnectionPage.clientsForm(clients).body { form[$0] }
                let chosen = Set((body["enabled_clients"]?.arrayValue ?? []).compactMap(\.stringValue))
                let changes = clients.map {
                    (clientID: $0.client.clientID, enabled: chosen.contains($0.client.clientID))
                }
                try await runtime.store.setEnabledClients(connectionID: connection.id, changes)
                return connectionPath(connection) + "?done=clients"
            }
        }
        admin.post("connections/:id/delete") { request, context in
            await change(request, context, "Delete a connection") { _ in
                _ = try await connections.delete(id: ManagementRequest.parameter("id", of: context))
                return base + "connections?done=deleted"
            }
        }
    }

    /// The body of `PATCH /connections/{id}` for the edit form: its settings, and `options` whole (a PATCH
    /// replaces them) — the stored ones with the form's domain aliases; the secrets, left out, are kept.
    private static func edited(_ connection: Connection, _ form: RequestParameters) -> [String: JSONValue] {
        var body = ConsoleConnectionPage.editForm(connection.strategy).body { form[$0] }
        var options = connection.publicOptions
        if connection.strategy == .oidc {
            options["domain_aliases"] = body["options"]?["domain_aliases"] ?? .array([])
        }
        body["options"] = .object(options)
        return body
    }

    private func connectionPath(_ connection: Connection) -> String {
        base + "connections/" + Self.pathSegment(connection.id)
    }

    private func connection(
        _ context: WardenRequestContext, _ connections: ConnectionsController
    ) async throws -> Connection {
        try await shown { try await connections.connection(id: ManagementRequest.parameter("id", of: context)) }
    }

    private func connectionsPage(
        _ request: Request, chrome: ConsoleChrome, _ connections: ConnectionsController
    ) async throws -> ConsoleConnectionsPage {
        let page = ConsolePager.request(ManagementRequest.query(request))
        let found = try await runtime.store.connections(strategies: [], name: nil, page: page)
        var rows: [ConsoleConnectionsPage.Row] = []
        for connection in found.items {
            let enabled = try await runtime.store.enabledClients(connectionID: connection.id, after: nil, limit: .max)
            rows.append(
                .init(
                    href: connectionPath(connection), name: DisplayText.clean(connection.name),
                    displayName: DisplayText.clean(connection.displayName), strategy: connection.strategy.rawValue,
                    applications: connection.isDatabase ? "Every application" : String(enabled.count),
                    isDatabase: connection.isDatabase))
        }
        // The database connection first (SPEC §15: it is where every application's users live by default).
        rows = rows.filter(\.isDatabase) + rows.filter { !$0.isDatabase }
        return ConsoleConnectionsPage(
            chrome: chrome, rows: rows, total: found.total,
            pager: ConsolePager(
                base + "connections", [], page: page, hasMore: page.offset + rows.count < found.total),
            notice: ConsolePages.notice(request, ["deleted": "The connection was deleted."]),
            presets: ConsoleConnectionPreset.links(base: base, current: nil))
    }

    private func newConnectionPage(
        _ preset: ConsoleConnectionPreset, chrome: ConsoleChrome, form: ConsoleForm
    ) -> ConsoleNewConnectionPage {
        ConsoleNewConnectionPage(
            chrome: chrome, presets: ConsoleConnectionPreset.links(base: base, current: preset.id),
            createPath: preset.createPath, createHeading: "New \(preset.label) connection",
            form: ConsoleFormView(form))
    }

    /// The page of `connection`; `form` when a submission of the edit form was refused, otherwise the stored
    /// values as the Management API shows them (``ConnectionsController/representation(_:)``: no secret).
    private func connectionPage(
        _ connection: Connection, chrome: ConsoleChrome, _ connections: ConnectionsController,
        form: ConsoleForm? = nil, notice: String? = nil
    ) async throws -> ConsoleConnectionPage {
        let shown = try await connections.representation(connection)
        let options = (shown["options"]?.objectValue ?? [:]).sorted { $0.key < $1.key }.map { key, value in
            ConsoleUserPage.Detail(name: key, value: DisplayText.clean(value.stringValue ?? value.serialized))
        }
        let details = [
            ("Name", connection.name), ("Display name", connection.displayName),
            ("Strategy", connection.strategy.rawValue), ("Id", connection.id),
            ("Login button", connection.showAsButton ? "Shown" : "Not shown"),
        ]
        let clients = try await runtime.store.clients(page: nil).items
        return ConsoleConnectionPage(
            title: DisplayText.clean(connection.displayName), chrome: chrome, path: connectionPath(connection),
            notice: notice, isDatabase: connection.isDatabase,
            details: details.map { .init(name: $0.0, value: DisplayText.clean($0.1)) },
            options: options,
            form: ConsoleFormView(
                form
                    ?? (connection.isDatabase
                        ? ConsoleDatabaseSettings.form.filled(ConsoleDatabaseSettings.values(connection.options))
                        : ConsoleConnectionPage.editForm(connection.strategy).showing(shown))),
            clientsForm: connection.isDatabase
                ? nil : ConsoleFormView(ConsoleConnectionPage.clientsForm(clients).showing(shown)))
    }
}
