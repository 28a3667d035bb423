import SQLKit
public import WardenCore

public import struct Foundation.Date

/// `clients(client_id, secret_hash, data, created_at, updated_at, expires_at)`: `data` is the ``Client`` JSON;
/// `expires_at` is set only for registered clients (SPEC §13).
extension SQLStore {
    public func insertClient(_ record: ClientRecord) async throws {
        let data = try JSONColumn.encode(record.client)
        try await UniqueViolation.mapped("A client with client_id '\(record.client.clientID)' already exists") {
            try await transaction { db in
                try await db.insert(into: "clients")
                    .columns("client_id", "secret_hash", "data", "created_at", "updated_at", "expires_at")
                    .values(
                        record.client.clientID, record.secretHash, data, record.createdAt.millisecondsSince1970,
                        record.updatedAt.millisecondsSince1970, record.expiresAt?.millisecondsSince1970
                    )
                    .run()
                try await Self.enable(Connection.databaseID, for: [record.client.clientID], on: db)
            }
        }
    }

    public func client(id clientID: String) async throws -> ClientRecord? {
        try await sql.select().column(SQLLiteral.all).from("clients").where("client_id", .equal, clientID)
            .first().map(Self.clientRecord)
    }

    public func clients(page: PageRequest?) async throws -> PageResult<ClientRecord> {
        try await fetchPage(from: "clients", orderBy: Self.ascending("created_at", "client_id"), page: page) {
            try Self.clientRecord($0)
        }
    }

    /// Replaces the client and its secret hash; `created_at` keeps its stored value.
    public func updateClient(_ record: ClientRecord) async throws {
        let updated = try await sql.update("clients")
            .set("secret_hash", to: record.secretHash)
            .set("data", to: try JSONColumn.encode(record.client))
            .set("updated_at", to: record.updatedAt.millisecondsSince1970)
            .where("client_id", .equal, record.client.clientID)
            .returning("client_id")
            .first()
        guard updated != nil else { throw StorageError.notFound }
    }

    public func extendClientExpiry(id clientID: String, to date: Date) async throws {
        try await sql.update("clients")
            .set("expires_at", to: date.millisecondsSince1970)
            .where("client_id", .equal, clientID)
            .where("expires_at", .isNot, SQLLiteral.null)
            .where("expires_at", .lessThan, date.millisecondsSince1970)
            .run()
    }

    public func deleteClient(id clientID: String) async throws -> Bool {
        try await transaction { db in
            try await db.delete(from: "client_grants").where("client_id", .equal, clientID).run()
            try await db.delete(from: "connection_clients").where("client_id", .equal, clientID).run()
            return try await db.delete(from: "clients").where("client_id", .equal, clientID)
                .returning("client_id").first() != nil
        }
    }

    private static func clientRecord(_ row: any SQLRow) throws -> ClientRecord {
        ClientRecord(
            client: try row.json("data"),
            secretHash: try row.value("secret_hash"),
            createdAt: try row.date("created_at"),
            updatedAt: try row.date("updated_at"),
            expiresAt: try row.optionalDate("expires_at"))
    }
}
