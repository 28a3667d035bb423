import SQLKit
public import WardenCore

public import struct Foundation.Date

/// `connections(id, name, strategy, data, created_at, updated_at)`, `data` the ``Connection`` JSON (secrets
/// included: the options an upstream needs); `connection_clients(connection_id, client_id)`; `deleted_connections(id,
/// deleted_at)`, the ids a delete answers 204 for (SPEC §15).
extension SQLStore {
    public func insertConnection(_ connection: Connection, enabledClients: [String]) async throws {
        let data = try JSONColumn.encode(connection)
        let now = Date().millisecondsSince1970
        try await UniqueViolation.mapped("A connection with name '\(connection.name)' already exists") {
            try await transaction { db in
                try await db.insert(into: "connections")
                    .columns("id", "name", "strategy", "data", "created_at", "updated_at")
                    .values(connection.id, connection.name, connection.strategy.rawValue, data, now, now)
                    .run()
                try await Self.enable(connection.id, for: enabledClients, on: db)
            }
        }
    }

    public func connection(id: String) async throws -> Connection? {
        try await reads.select().column("data").from("connections").where("id", .equal, id).first()
            .map { try $0.json("data") }
    }

    public func connection(name: String) async throws -> Connection? {
        try await reads.select().column("data").from("connections").where("name", .equal, name).first()
            .map { try $0.json("data") }
    }

    public func connections(strategies: [ConnectionStrategy], name: String?, page: PageRequest?) async throws
        -> PageResult<Connection>
    {
        try await fetchPage(
            from: "connections", where: Self.connectionFilter(strategies: strategies, name: name),
            orderBy: Self.ascending("created_at", "id"), page: page
        ) { try $0.json("data") }
    }

    public func connections(strategies: [ConnectionStrategy], name: String?, after id: String?, limit: Int)
        async throws -> [Connection]
    {
        let select = reads.select().column("data").from("connections")
        var predicates = Self.connectionFilter(strategies: strategies, name: name).map { [$0] } ?? []
        if let id { predicates.append(SQLBinaryExpression(SQLColumn("id"), .greaterThan, SQLBind(id))) }
        if let predicate = Self.allOf(predicates) { select.where(predicate) }
        return try await select.orderBy("id").limit(limit).all().map { try $0.json("data") }
    }

    public func updateConnection(_ connection: Connection) async throws {
        let data = try JSONColumn.encode(connection)
        let updated = try await sql.update("connections")
            .set("data", to: data)
            .set("updated_at", to: Date().millisecondsSince1970)
            .where("id", .equal, connection.id)
            .returning("id")
            .first()
        guard updated != nil else { throw StorageError.notFound }
    }

    public func deleteConnection(id: String, at date: Date) async throws -> ConnectionDeletion {
        try await transaction { db in
            guard try await db.delete(from: "connections").where("id", .equal, id).returning("id").first() != nil
            else {
                let tombstone = try await db.select().column("id").from("deleted_connections")
                    .where("id", .equal, id).first()
                return tombstone == nil ? .notFound : .alreadyDeleted
            }
            for table in ["connection_clients", "organization_connections"] {
                try await db.delete(from: table).where("connection_id", .equal, id).run()
            }
            try await Self.deleteUsers(ofConnection: id, on: db)
            try await db.insert(into: "deleted_connections").columns("id", "deleted_at")
                .values(id, date.millisecondsSince1970).run()
            return .deleted
        }
    }

    public func enabledClients(connectionID: String, after clientID: String?, limit: Int) async throws -> [String] {
        let select = reads.select().column("client_id").from("connection_clients")
            .where("connection_id", .equal, connectionID)
        if let clientID { select.where("client_id", .greaterThan, clientID) }
        return try await select.orderBy("client_id").limit(limit).all(decodingColumn: "client_id", as: String.self)
    }

    public func setEnabledClients(connectionID: String, _ changes: [(clientID: String, enabled: Bool)]) async throws {
        let enabled = changes.filter(\.enabled).map(\.clientID)
        let disabled = changes.filter { !$0.enabled }.map(\.clientID)
        try await transaction { db in
            if !disabled.isEmpty {
                try await db.delete(from: "connection_clients")
                    .where("connection_id", .equal, connectionID)
                    .where(Self.isIn("client_id", disabled))
                    .run()
            }
            try await Self.enable(connectionID, for: enabled, on: db)
        }
    }

    public func connections(enabledFor clientID: String) async throws -> [Connection] {
        try await reads.select().column(SQLColumn("data", table: "connections")).from("connections")
            .join(
                "connection_clients", on: SQLColumn("id", table: "connections"), .equal,
                SQLColumn("connection_id", table: "connection_clients")
            )
            .where(SQLColumn("client_id", table: "connection_clients"), .equal, SQLBind(clientID))
            .orderBy(SQLColumn("name", table: "connections"))
            .all().map { try $0.json("data") }
    }

    /// Deletes the identities of connection `id`, and the users they made: every user who has no identity left and
    /// is not a database user (whose own identity is implied). Their role assignments and search projection go too.
    private static func deleteUsers(ofConnection id: String, on db: any SQLDatabase) async throws {
        let owners = try await db.select().column("user_id").from("user_identities")
            .where("connection_id", .equal, id).all(decodingColumn: "user_id", as: String.self)
        try await db.delete(from: "user_identities").where("connection_id", .equal, id).run()
        for batch in stride(from: 0, to: owners.count, by: rowsPerInsert).map({
            Array(owners[$0..<min($0 + rowsPerInsert, owners.count)])
        }) {
            let stillLinked = Set(
                try await db.select().column("user_id").from("user_identities").where("user_id", .in, batch)
                    .all(decodingColumn: "user_id", as: String.self))
            let gone = batch.filter { !stillLinked.contains($0) && !$0.hasPrefix("auth0|") }
            guard !gone.isEmpty else { continue }
            for table in ["user_roles", "user_fields", "users"] {
                try await db.delete(from: table).where("user_id", .in, gone).run()
            }
        }
    }

    /// Enables connection `id` for `clientIDs`, leaving those already enabled as they are.
    static func enable(_ id: String, for clientIDs: [String], on db: any SQLDatabase) async throws {
        guard !clientIDs.isEmpty else { return }
        let insert = db.insert(into: "connection_clients").columns("connection_id", "client_id")
        for clientID in Set(clientIDs).sorted() { insert.values(id, clientID) }
        try await insert.ignoringConflicts(with: ["connection_id", "client_id"]).run()
    }

    /// `strategy IN (…) AND name = …`, or `nil` when neither filters.
    private static func connectionFilter(strategies: [ConnectionStrategy], name: String?) -> (any SQLExpression)? {
        var predicates: [any SQLExpression] = []
        if !strategies.isEmpty { predicates.append(isIn("strategy", strategies.map(\.rawValue))) }
        if let name { predicates.append(equals("name", name)) }
        return allOf(predicates)
    }
}
