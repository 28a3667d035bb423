import Foundation
import Hummingbird
import WardenCore
import WardenWire

/// `/api/v2/connections` and `/api/v2/clients/{id}/connections` (SPEC §15 "Management"): where users' identities
/// live, on the reference platform's wire — 202 then 204 on delete, `options` replaced whole by a PATCH (its
/// secrets kept when left out), `display_name` reset to `name` by a PATCH without it.
struct ConnectionsController {
    let runtime: WardenRuntime
    let options: ConnectionOptions
    var audit: ManagementAudit { ManagementAudit(runtime: runtime) }

    /// The controller over the runtime's upstream client and data key, as the Management API and the console
    /// (SPEC §14, §15) both build it.
    init(runtime: WardenRuntime) {
        self.runtime = runtime
        options = ConnectionOptions(
            discovery: OIDCDiscovery(http: runtime.upstream), canKeepTokens: runtime.sealer != nil)
    }

    /// What a create may set; a PATCH may set all of it but `name` and `strategy`.
    static let creatable: Set<String> = [
        "name", "display_name", "strategy", "options", "enabled_clients", "is_domain_connection", "show_as_button",
        "realms", "metadata",
    ]
    static let updatable = creatable.subtracting(["name", "strategy"])
    /// The most entries of one `PATCH /connections/{id}/clients`.
    static let maximumClientChanges = 50

    func addRoutes(to group: RouterGroup<WardenRequestContext>) {
        group.get("connections") { request, context in
            try context.requireScope("read:connections")
            return try await list(request)
        }
        group.post("connections") { request, context in
            try await audit.change("Create a connection", scope: "create:connections", request, context) {
                let connection = try await create(try await ManagementRequest.object(request))
                return Response.json(try await representation(connection), status: .created)
            }
        }
        group.get("connections/:id") { _, context in
            try context.requireScope("read:connections")
            return Response.json(try await representation(try await connection(context)))
        }
        group.patch("connections/:id") { request, context in
            try await audit.change("Update a connection", scope: "update:connections", request, context) {
                var connection = try await connection(context)
                try await update(&connection, with: try await ManagementRequest.object(request))
                return Response.json(try await representation(connection))
            }
        }
        group.delete("connections/:id") { request, context in
            try await audit.change("Delete a connection", scope: "delete:connections", request, context) {
                try await delete(id: try ManagementRequest.parameter("id", of: context))
            }
        }
        group.get("connections/:id/clients") { request, context in
            try context.requireScope("read:connections")
            let connection = try await connection(context)
            let checkpoint = try ManagementRequest.checkpoint(request) ?? (nil, 50)
            let ids = try await runtime.store.enabledClients(
                connectionID: connection.id, after: checkpoint.from, limit: checkpoint.take + 1)
            var object: [String: JSONValue] = [
                "clients": .array(ids.prefix(checkpoint.take).map { .object(["client_id": .string($0)]) })
            ]
            if ids.count > checkpoint.take, let last = ids.prefix(checkpoint.take).last {
                object["next"] = .string(last)
            }
            return Response.json(.object(object))
        }
        group.patch("connections/:id/clients") { request, context in
            try await audit.change("Update a connection's clients", scope: "update:connections", request, context) {
                let connection = try await connection(context)
                let changes = try await clientChanges(try await ManagementRequest.json(request))
                try await runtime.store.setEnabledClients(connectionID: connection.id, changes)
                return ManagementResponse.noContent
            }
        }
        group.get("clients/:id/connections") { request, context in
            try context.requireScope("read:connections")
            let clientID = try ManagementRequest.parameter("id", of: context)
            guard try await runtime.store.client(id: clientID) != nil else {
                throw ManagementError.notFound("client", "The client does not exist")
            }
            let strategies = Set(ManagementRequest.queryValues("strategy", of: request))
            let connections = try await runtime.store.connections(enabledFor: clientID)
                .filter { strategies.isEmpty || strategies.contains($0.strategy.rawValue) }
            var items: [JSONValue] = []
            for connection in connections { items.append(try await representation(connection)) }
            return Response.json(.object(["connections": .array(items)]))
        }
    }

    private static let notFound = ManagementError.notFound("connection", "The connection does not exist")

    private func connection(_ context: WardenRequestContext) async throws -> Connection {
        try await connection(id: try ManagementRequest.parameter("id", of: context))
    }

    /// The connection `id`, or 404 `inexistent_connection`.
    func connection(id: String) async throws -> Connection {
        guard let connection = try await runtime.store.connection(id: id) else { throw Self.notFound }
        return connection
    }

    /// `GET /connections`: `strategy` (repeatable) and `name` filters; `page`/`per_page` or `from`/`take`.
    private func list(_ request: Request) async throws -> Response {
        let strategies = ManagementRequest.queryValues("strategy", of: request).map(ConnectionStrategy.init)
        let name = ManagementRequest.query(request)["name"].flatMap { $0.isEmpty ? nil : $0 }
        if let checkpoint = try ManagementRequest.checkpoint(request) {
            let found = try await runtime.store.connections(
                strategies: strategies, name: name, after: checkpoint.from, limit: checkpoint.take + 1)
            let page = found.prefix(checkpoint.take)
            var items: [JSONValue] = []
            for connection in page { items.append(try await representation(connection)) }
            var object: [String: JSONValue] = ["connections": .array(items)]
            if found.count > checkpoint.take, let last = page.last { object["next"] = .string(last.id) }
            return Response.json(.object(object))
        }
        let (page, totals) = try ManagementRequest.paging(request)
        let result = try await runtime.store.connections(strategies: strategies, name: name, page: page)
        var items: [JSONValue] = []
        for connection in result.items { items.append(try await representation(connection)) }
        return ManagementResponse.list(
            items, total: result.total, page: page, includeTotals: totals, name: "connections")
    }

    /// Validates `members` as the body of `POST /connections` and stores the connection; shared by the
    /// Management API and the console (SPEC §14, §15).
    func create(_ members: [String: JSONValue]) async throws -> Connection {
        let body = try ManagementBody(checking: members, allowed: Self.creatable)
        let name = try body.requiredString("name")
        guard Self.isValidName(name) else {
            throw body.invalid("name", "Expected 1 to 128 letters, digits and inner hyphens")
        }
        let strategy = ConnectionStrategy(rawValue: try body.requiredString("strategy"))
        guard ConnectionOptions.creatable.contains(strategy) else {
            let allowed = ConnectionOptions.creatable.map(\.rawValue).joined(separator: ", ")
            throw body.invalid(
                "strategy",
                strategy == .auth0
                    ? "There is one auth0 connection, \(Connection.databaseName)"
                    : "Value \"\(strategy)\" is not one of: \(allowed)")
        }
        var connection = Connection(
            id: RandomToken.identifier(prefix: "con_", length: 16), name: name, strategy: strategy)
        try await apply(body, to: &connection)
        let enabled = try await enabledClients(body) ?? []
        try await ManagementRequest.write(
            "connection", conflict: "A connection with the same name already exists"
        ) {
            try await runtime.store.insertConnection(connection, enabledClients: enabled)
        }
        return connection
    }

    /// Validates `members` as the body of `PATCH /connections/{id}` and stores `connection` with its changes.
    func update(_ connection: inout Connection, with members: [String: JSONValue]) async throws {
        let body = try ManagementBody(checking: members, allowed: Self.updatable)
        try await apply(body, to: &connection)
        if let enabled = try await enabledClients(body) {
            let current = try await runtime.store.enabledClients(connectionID: connection.id, after: nil, limit: .max)
            let changes =
                current.filter { !enabled.contains($0) }.map { (clientID: $0, enabled: false) }
                + enabled.map { (clientID: $0, enabled: true) }
            try await runtime.store.setEnabledClients(connectionID: connection.id, changes)
        }
        let changed = connection
        try await ManagementRequest.write("connection") { try await runtime.store.updateConnection(changed) }
    }

    /// `DELETE /connections/{id}`: 202 `{"deleted_at"}`, then 204 for the same id; the database connection
    /// cannot be deleted (403 `operation_not_allowed`).
    func delete(id: String) async throws -> Response {
        if id == Connection.databaseID {
            throw ManagementError.operationNotAllowed("The database connection cannot be deleted")
        }
        let now = runtime.clock.now()
        switch try await runtime.store.deleteConnection(id: id, at: now) {
        case .deleted:
            return Response.json(.object(["deleted_at": ManagementResponse.timestamp(now)]), status: .accepted)
        case .alreadyDeleted: return ManagementResponse.noContent
        case .notFound: throw Self.notFound
        }
    }

    /// Sets what the body carries: a create's or a PATCH's properties (SPEC §15 defaults for the rest).
    private func apply(_ body: ManagementBody, to connection: inout Connection) async throws {
        connection.displayName = try body.string("display_name") ?? connection.name
        if let value = try body.bool("is_domain_connection") { connection.isDomainConnection = value }
        if let value = try body.bool("show_as_button") { connection.showAsButton = value }
        if body.has("realms") { connection.realms = try body.strings("realms") ?? [connection.name] }
        if body.has("metadata") { connection.metadata = try Self.metadata(body) }
        if let given = try body.jsonObject("options") {
            connection.options = try await options.validate(
                connection.keepingSecrets(in: given), strategy: connection.strategy)
            try await requireUniqueIssuer(connection)
        }
    }

    /// 409 `conflict` when another connection has this one's issuer (RFC 9207 §4: the issuer names one upstream).
    private func requireUniqueIssuer(_ connection: Connection) async throws {
        guard let issuer = connection.options["issuer"]?.stringValue else { return }
        let others = try await runtime.store.connections(strategies: [], name: nil, page: nil).items
        if others.contains(where: { $0.id != connection.id && $0.options["issuer"]?.stringValue == issuer }) {
            throw ManagementError.conflict("Another connection already has the issuer \(issuer)")
        }
    }

    /// `enabled_clients`: existing client ids, or `nil` when the body has none.
    private func enabledClients(_ body: ManagementBody) async throws -> [String]? {
        guard let ids = try body.strings("enabled_clients") else { return nil }
        for (index, id) in ids.enumerated() where try await runtime.store.client(id: id) == nil {
            throw body.invalid("enabled_clients[\(index)]", "The client \(id) does not exist")
        }
        return ids
    }

    /// `metadata`: at most 10 string values of at most 255 characters.
    private static func metadata(_ body: ManagementBody) throws -> [String: String] {
        let members = try body.jsonObject("metadata") ?? [:]
        guard members.count <= 10 else { throw body.invalid("metadata", "At most 10 properties") }
        var result: [String: String] = [:]
        for (key, value) in members {
            guard let text = value.stringValue, text.count <= 255 else {
                throw body.invalid("metadata.\(key)", "Expected a string of at most 255 characters")
            }
            result[key] = text
        }
        return result
    }

    /// The body of `PATCH /connections/{id}/clients`: `[{"client_id", "status"}]`, at most 50, clients existing.
    private func clientChanges(_ json: JSONValue) async throws -> [(clientID: String, enabled: Bool)] {
        guard case .array(let items) = json, items.count <= Self.maximumClientChanges else {
            throw ManagementError.invalidBody(
                "Payload validation error: 'Expected an array of at most \(Self.maximumClientChanges) items'.")
        }
        var changes: [(clientID: String, enabled: Bool)] = []
        for (index, item) in items.enumerated() {
            guard case .object(let members) = item else {
                throw ManagementError.invalidBody("Payload validation error: 'Expected type object' on [\(index)].")
            }
            let entry = try ManagementBody(checking: members, allowed: ["client_id", "status"])
            let clientID = try entry.requiredString("client_id")
            guard let status = try entry.bool("status") else {
                throw entry.invalid("status", "Missing required property")
            }
            guard try await runtime.store.client(id: clientID) != nil else {
                throw ManagementError.notFound("client", "The client \(clientID) does not exist")
            }
            changes.append((clientID, status))
        }
        return changes
    }

    /// A connection as every answer shows it: secrets left out, OIDC options with their `schema_version`.
    func representation(_ connection: Connection) async throws -> JSONValue {
        var options = connection.publicOptions
        if connection.strategy == .oidc { options["schema_version"] = "oidc-V4" }
        let enabled = try await runtime.store.enabledClients(connectionID: connection.id, after: nil, limit: .max)
        var object = try ManagementResponse.members(of: connection)
        object["options"] = .object(options)
        object["enabled_clients"] = .array(enabled.map(JSONValue.string))
        return .object(object)
    }

    /// 1–128 letters and digits, with hyphens only inside (SPEC §15).
    static func isValidName(_ name: String) -> Bool {
        guard (1...128).contains(name.count), name.first != "-", name.last != "-" else { return false }
        return name.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0)
                || ("0"..."9").contains($0) || $0 == "-"
        }
    }
}
