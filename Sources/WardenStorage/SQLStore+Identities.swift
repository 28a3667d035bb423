import SQLKit
public import WardenCore
import WardenWire

import struct Foundation.Date

/// `user_identities(connection_id, identity_user_id, user_id, provider, number, is_social, profile_data, tokens,
/// created_at, updated_at)`: the identities upstreams vouch for (SPEC §15 "Users"), the upstream id as text and
/// `number` telling whether it is a JSON number; the connection's name comes from `connections`.
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
                        identity.connectionID, identity.identity.userID.description, record.user.userID,
                        identity.identity.provider.rawValue, Self.isNumber(identity.identity.userID),
                        identity.identity.isSocial, JSONValue.object(identity.profileData).serialized, now, now
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
            let text: String = try row.value("identity_user_id")
            let number: Bool = try row.value("number")
            let identity = FederatedIdentity(
                connection: try row.value("name"), provider: ConnectionStrategy(rawValue: try row.value("provider")),
                userID: number ? Int64(text).map(UpstreamUserID.number) ?? .string(text) : .string(text))
            identities[try row.value("user_id", as: String.self), default: []].append(
                UserIdentity(
                    connectionID: try row.value("connection_id"), identity: identity,
                    profileData: try row.jsonObject("profile_data")))
        }
        return identities
    }

    public func updateIdentityProfile(_ identity: UserIdentity) async throws {
        let updated = try await sql.update("user_identities")
            .set("profile_data", to: JSONValue.object(identity.profileData).serialized)
            .set("updated_at", to: Date().millisecondsSince1970)
            .where("connection_id", .equal, identity.connectionID)
            .where("identity_user_id", .equal, identity.identity.userID.description)
            .returning("user_id").first()
        guard updated != nil else { throw StorageError.notFound }
    }

    /// Whether the wire shows `id` as a JSON number (GitHub's ids).
    private static func isNumber(_ id: UpstreamUserID) -> Bool {
        if case .number = id { return true }
        return false
    }

    public func users(email: String) async throws -> [UserRecord] {
        try await reads.select().column(SQLLiteral.all).from("users").where("email", .equal, email.lowercased())
            .orderBy("created_at").orderBy("user_id")
            .all().map(Self.userRecord)
    }
}
