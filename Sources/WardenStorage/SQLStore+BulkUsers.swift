import SQLKit
public import WardenCore

/// Bulk users (SPEC §9 "Bulk users"): the batch insert of an import and the pages of an export. Every row an
/// import writes goes through ``insertUsers(_:upsert:)``, the one place a bulk write of `users` happens.
extension SQLStore {
    /// Rows per multi-row `INSERT`: 14 columns × 1,000 rows stay under SQLite's 32,766 bound values.
    static let usersPerInsert = 1_000

    /// In one transaction (`BEGIN IMMEDIATE` on SQLite): `INSERT … ON CONFLICT DO NOTHING RETURNING user_id,
    /// email`, ``usersPerInsert`` rows a statement; a record whose row did not come back met an existing id or
    /// e-mail (or one earlier in the batch). With `upsert`, each of those is one `UPDATE … WHERE email = ?`, or
    /// `WHERE user_id = ?` when no user has that e-mail. Hashes are stored as given. The search projection of
    /// every user written is rewritten in the same transaction (``writeSearchProjection(for:on:)``).
    public func insertUsers(_ records: [UserRecord], upsert: Bool) async throws -> [BulkUserOutcome] {
        guard !records.isEmpty else { return [] }
        let rows = records.map { record in
            [record.user.userID, record.user.createdAt.millisecondsSince1970]
                + Self.userColumns(record).map(\.value)
        }
        let columns = ["user_id", "created_at"] + Self.userColumns(records[0]).map(\.name)
        return try await transaction { db in
            var inserted: [String: Int] = [:]
            var written: [String] = []
            var start = rows.startIndex
            while start < rows.endIndex {
                let end = min(start + Self.usersPerInsert, rows.endIndex)
                let insert = db.insert(into: "users").columns(columns).ignoringConflicts()
                for row in rows[start..<end] { insert.values(row) }
                for row in try await insert.returning("user_id", "email").all() {
                    let userID: String = try row.decode(column: "user_id")
                    let key = Self.insertedKey(userID, try row.decode(column: "email"))
                    inserted[key, default: 0] += 1
                    written.append(userID)
                }
                start = end
            }
            var outcomes: [BulkUserOutcome] = []
            outcomes.reserveCapacity(records.count)
            for record in records {
                let key = Self.insertedKey(record.user.userID, record.user.email?.lowercased())
                if let count = inserted[key], count > 0 {
                    inserted[key] = count - 1
                    outcomes.append(.inserted)
                } else if upsert, let updated = try await Self.updateImported(record, on: db) {
                    outcomes.append(.updated)
                    written.append(updated)
                } else {
                    outcomes.append(.duplicate)
                }
            }
            try await self.writeSearchProjection(for: written, on: db)
            return outcomes
        }
    }

    /// `SELECT * FROM users WHERE user_id > ? ORDER BY user_id LIMIT ?` (keyset paging on the primary key).
    public func users(after userID: String?, limit: Int) async throws -> [UserRecord] {
        let select = reads.select().column(SQLLiteral.all).from("users")
        if let userID { select.where("user_id", .greaterThan, userID) }
        return try await select.orderBy("user_id").limit(limit).all().map(Self.userRecord)
    }

    private static func insertedKey(_ userID: String, _ email: String?) -> String {
        userID + "\n" + (email ?? "")
    }

    /// Gives an existing user the imported profile: the one with the record's e-mail, else the one with its id.
    /// The password hash changes only when the record has one; `updated_at` is the record's creation time.
    /// Returns the id of the user updated, or `nil` when there is none.
    private static func updateImported(_ record: UserRecord, on db: any SQLDatabase) async throws -> String? {
        func update() -> SQLUpdateBuilder {
            let update = db.update("users")
            for column in userColumns(record)
            where !["password_hash", "last_login", "logins_count"].contains(column.name) {
                update.set(column.name, to: column.value)
            }
            update.set(
                "password_hash",
                to: SQLFunction("COALESCE", args: SQLBind(record.passwordHash), SQLColumn("password_hash")))
            return update
        }
        if let email = record.user.email?.lowercased(),
            let row = try await update().where("email", .equal, email).returning("user_id").first()
        {
            return try row.decode(column: "user_id", as: String.self)
        }
        return try await update().where("user_id", .equal, record.user.userID).returning("user_id").first()
            .map { try $0.decode(column: "user_id", as: String.self) }
    }
}
