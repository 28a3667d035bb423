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
                try await Self.insert(identity, of: record.user.userID, at: now, on: db)
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
                    profileData: try row.jsonObject("profile_data"),
                    sealedTokens: try row.decodeNil(column: "tokens") ? nil : try row.value("tokens")))
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

    /// Inserts the row of `identity`, owned by `userID`.
    private static func insert(_ identity: UserIdentity, of userID: String, at now: Int64, on db: any SQLDatabase)
        async throws
    {
        try await db.insert(into: "user_identities")
            .columns(
                "connection_id", "identity_user_id", "user_id", "provider", "number", "is_social", "profile_data",
                "tokens", "created_at", "updated_at"
            )
            .values(
                identity.connectionID, identity.identity.userID.description, userID,
                identity.identity.provider.rawValue, isNumber(identity.identity.userID), identity.identity.isSocial,
                JSONValue.object(identity.profileData).serialized, identity.sealedTokens, now, now
            )
            .run()
    }

    public func updateIdentityTokens(connectionID: String, identityUserID: String, sealed: String?) async throws {
        let updated = try await sql.update("user_identities")
            .set("tokens", to: sealed)
            .set("updated_at", to: Date().millisecondsSince1970)
            .where("connection_id", .equal, connectionID)
            .where("identity_user_id", .equal, identityUserID)
            .returning("user_id").first()
        guard updated != nil else { throw StorageError.notFound }
    }

    public func linkIdentity(_ identity: UserIdentity, to userID: String) async throws {
        try await UniqueViolation.mapped("The identity belongs to a user already") {
            try await transaction { db in
                guard try await Self.exists(userID, on: db) else { throw StorageError.notFound }
                try await Self.insert(identity, of: userID, at: Date().millisecondsSince1970, on: db)
            }
        }
    }

    public func mergeUser(_ secondary: String, into primary: String) async throws {
        try await transaction { db in
            guard secondary != primary, try await Self.exists(primary, on: db), try await Self.exists(secondary, on: db)
            else { throw StorageError.notFound }
            try await db.update("user_identities").set("user_id", to: primary)
                .set("updated_at", to: Date().millisecondsSince1970)
                .where("user_id", .equal, secondary).run()
            try await Self.deleteUser(secondary, on: db)
        }
    }

    public func unlinkIdentity(
        connectionID: String, identityUserID: String, from userID: String, into record: UserRecord
    ) async throws {
        let columns = Self.userColumns(record)
        try await UniqueViolation.mapped("The user \(record.user.userID) already exists") {
            try await transaction { db in
                try await db.insert(into: "users")
                    .columns(["user_id", "created_at"] + columns.map(\.name))
                    .values([record.user.userID, record.user.createdAt.millisecondsSince1970] + columns.map(\.value))
                    .run()
                let moved = try await db.update("user_identities").set("user_id", to: record.user.userID)
                    .set("updated_at", to: Date().millisecondsSince1970)
                    .where("connection_id", .equal, connectionID).where("identity_user_id", .equal, identityUserID)
                    .where("user_id", .equal, userID)
                    .returning("user_id").first()
                guard moved != nil else { throw StorageError.notFound }
                try await self.writeSearchProjection(for: [record.user.userID], on: db)
            }
        }
    }

    /// Whether the user `userID` exists, read inside a transaction.
    private static func exists(_ userID: String, on db: any SQLDatabase) async throws -> Bool {
        try await db.select().column("user_id").from("users").where("user_id", .equal, userID).first() != nil
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
