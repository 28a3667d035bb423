import SQLKit
public import WardenCore
import WardenWire

import struct Foundation.Date

/// `user_identities(connection_id, identity_user_id, user_id, provider, number, is_social, profile_data, tokens,
/// created_at, updated_at)`: the identities upstreams vouch for (SPEC §15 "Users"); the connection's name comes
/// from `connections`.
extension SQLStore {
    /// `substr(user_id, 1, 6) = 'auth0|'`: the database connection's users, the predicate of the partial unique
    /// index on their e-mail addresses (migration 15).
    static let databaseUser = SQLRaw("substr(user_id, 1, 6) = 'auth0|'")

    public func insertUser(_ record: UserRecord, identity: UserIdentity) async throws {
        let columns = Self.userColumns(record)
        let now = Date().millisecondsSince1970
        try await UniqueViolation.mapped("The user \(record.user.userID) or its identity already exists") {
            try await transaction { db in
                try await db.insert(into: "users")
                    .columns(["user_id", "created_at"] + columns.map(\.name))
                    .values([record.user.userID, record.user.createdAt.millisecondsSince1970] + columns.map(\.value))
                    .run()
                try await db.insert(into: "user_identities")
                    .columns(
                        "connection_id", "identity_user_id", "user_id", "provider", "number", "is_social",
                        "profile_data", "created_at", "updated_at"
                    )
                    .values(
                        identity.connectionID, identity.userID, record.user.userID, identity.provider.rawValue,
                        identity.isNumber, identity.isSocial, JSONValue.object(identity.profileData).serialized, now,
                        now
                    )
                    .run()
                try await self.writeSearchProjection(for: [record.user.userID], on: db)
            }
        }
    }

    public func user(connectionID: String, identityUserID: String) async throws -> UserRecord? {
        let owner = try await reads.select().column("user_id").from("user_identities")
            .where("connection_id", .equal, connectionID).where("identity_user_id", .equal, identityUserID)
            .first(decodingColumn: "user_id", as: String.self)
        guard let owner else { return nil }
        return try await user(id: owner)
    }

    public func identities(ofUsers userIDs: [String]) async throws -> [String: [UserIdentity]] {
        guard !userIDs.isEmpty else { return [:] }
        let rows = try await reads.select()
            .column(SQLColumn(SQLLiteral.all, table: SQLIdentifier("user_identities")))
            .column(SQLColumn("name", table: "connections"))
            .from("user_identities")
            .join(
                "connections", on: SQLColumn("id", table: "connections"), .equal,
                SQLColumn("connection_id", table: "user_identities")
            )
            .where(SQLColumn("user_id", table: "user_identities"), .in, SQLBind.group(userIDs))
            .orderBy(SQLColumn("created_at", table: "user_identities"))
            .all()
        var identities: [String: [UserIdentity]] = [:]
        for row in rows {
            var identity = UserIdentity(
                connectionID: try row.value("connection_id"), connection: try row.value("name"),
                provider: ConnectionStrategy(rawValue: try row.value("provider")),
                userID: try row.value("identity_user_id"), isNumber: try row.value("number"),
                profileData: try row.jsonObject("profile_data"))
            identity.isSocial = try row.value("is_social")
            identities[try row.value("user_id", as: String.self), default: []].append(identity)
        }
        return identities
    }

    public func updateIdentityProfile(_ identity: UserIdentity) async throws {
        let updated = try await sql.update("user_identities")
            .set("profile_data", to: JSONValue.object(identity.profileData).serialized)
            .set("updated_at", to: Date().millisecondsSince1970)
            .where("connection_id", .equal, identity.connectionID)
            .where("identity_user_id", .equal, identity.userID)
            .returning("user_id").first()
        guard updated != nil else { throw StorageError.notFound }
    }

    public func users(email: String) async throws -> [UserRecord] {
        try await reads.select().column(SQLLiteral.all).from("users").where("email", .equal, email.lowercased())
            .orderBy("created_at").orderBy("user_id")
            .all().map(Self.userRecord)
    }
}
