import SQLKit
public import WardenCore

import struct Foundation.Date

/// `resource_servers(id, identifier, data, created_at, updated_at)`: `data` is the ``ResourceServer`` JSON.
extension SQLStore {
    public func insertResourceServer(_ server: ResourceServer) async throws {
        let data = try JSONColumn.encode(server)
        let now = Date().millisecondsSince1970
        try await UniqueViolation.mapped("An API with identifier '\(server.identifier)' already exists") {
            try await sql.insert(into: "resource_servers")
                .columns("id", "identifier", "data", "created_at", "updated_at")
                .values(server.id, server.identifier, data, now, now)
                .run()
        }
    }

    public func resourceServer(idOrIdentifier: String) async throws -> ResourceServer? {
        try await sql.select().column("data").from("resource_servers")
            .where("id", .equal, idOrIdentifier)
            .orWhere("identifier", .equal, idOrIdentifier)
            .first()
            .map { try $0.json("data") }
    }

    public func resourceServers(page: PageRequest?) async throws -> PageResult<ResourceServer> {
        try await fetchPage(from: "resource_servers", orderBy: Self.ascending("created_at", "id"), page: page) {
            try $0.json("data")
        }
    }

    /// Replaces the API; throws ``StorageError/conflict(_:)`` when its new identifier belongs to another API.
    public func updateResourceServer(_ server: ResourceServer) async throws {
        let data = try JSONColumn.encode(server)
        let updated = try await UniqueViolation.mapped("An API with identifier '\(server.identifier)' already exists") {
            try await sql.update("resource_servers")
                .set("identifier", to: server.identifier)
                .set("data", to: data)
                .set("updated_at", to: Date().millisecondsSince1970)
                .where("id", .equal, server.id)
                .returning("id")
                .first()
        }
        guard updated != nil else { throw StorageError.notFound }
    }

    /// Deletes the API, the client grants for it and the role permissions on it.
    public func deleteResourceServer(id: String) async throws -> Bool {
        try await transaction { db in
            guard
                let identifier = try await db.delete(from: "resource_servers").where("id", .equal, id)
                    .returning("identifier").first(decodingColumn: "identifier", as: String.self)
            else { return false }
            try await db.delete(from: "client_grants").where("audience", .equal, identifier).run()
            try await db.delete(from: "role_permissions").where("resource_server_identifier", .equal, identifier)
                .run()
            return true
        }
    }
}
