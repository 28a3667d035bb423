import SQLKit
public import WardenCore

import struct Foundation.Date

/// `client_grants(id, client_id, audience, scope, created_at)`: `scope` is a JSON array of strings.
extension SQLStore {
    public func insertClientGrant(_ grant: ClientGrant) async throws {
        let scope = try JSONColumn.encode(grant.scope)
        try await UniqueViolation.mapped(Self.grantConflict(grant)) {
            try await sql.insert(into: "client_grants")
                .columns("id", "client_id", "audience", "scope", "created_at")
                .values(grant.id, grant.clientID, grant.audience, scope, Date().millisecondsSince1970)
                .run()
        }
    }

    public func clientGrant(id: String) async throws -> ClientGrant? {
        try await sql.select().column(SQLLiteral.all).from("client_grants").where("id", .equal, id)
            .first().map(Self.clientGrant)
    }

    public func clientGrants(clientID: String?, audience: String?, page: PageRequest?) async throws -> PageResult<
        ClientGrant
    > {
        let filters = [clientID.map { Self.equals("client_id", $0) }, audience.map { Self.equals("audience", $0) }]
        return try await fetchPage(
            from: "client_grants", where: Self.allOf(filters.compactMap { $0 }),
            orderBy: Self.ascending("created_at", "id"), page: page
        ) { try Self.clientGrant($0) }
    }

    /// Replaces the grant; throws ``StorageError/notFound``, or ``StorageError/conflict(_:)`` when the client
    /// already has another grant for the audience.
    public func updateClientGrant(_ grant: ClientGrant) async throws {
        let scope = try JSONColumn.encode(grant.scope)
        let updated = try await UniqueViolation.mapped(Self.grantConflict(grant)) {
            try await sql.update("client_grants")
                .set("client_id", to: grant.clientID)
                .set("audience", to: grant.audience)
                .set("scope", to: scope)
                .where("id", .equal, grant.id)
                .returning("id")
                .first()
        }
        guard updated != nil else { throw StorageError.notFound }
    }

    public func deleteClientGrant(id: String) async throws -> Bool {
        try await sql.delete(from: "client_grants").where("id", .equal, id).returning("id").first() != nil
    }

    private static func grantConflict(_ grant: ClientGrant) -> String {
        "Client '\(grant.clientID)' already has a grant for '\(grant.audience)'"
    }

    private static func clientGrant(_ row: any SQLRow) throws -> ClientGrant {
        ClientGrant(
            id: try row.value("id"), clientID: try row.value("client_id"), audience: try row.value("audience"),
            scope: try row.json("scope"))
    }
}
