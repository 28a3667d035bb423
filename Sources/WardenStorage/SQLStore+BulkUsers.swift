import SQLKit
import Synchronization
public import WardenCore
import WardenWire

/// Bulk users (SPEC §9 "Bulk users"): the batch insert of an import and the pages of an export. Every row an
/// import writes goes through ``insertUsers(_:upsert:)``, the one place a bulk write of `users` happens.
extension SQLStore {
    /// Rows per `INSERT`: its rows travel as one bound JSON array, so this bounds the statement's size, not its
    /// bound values.
    static let usersPerInsert = 5_000

    /// The writer's page cache while an import runs (SQLite), in KiB. A profile of a 200,000-user import spent
    /// half its time in the kernel reading pages through SQLite's 2 MB default: 64 s, and 31 s with this (issue
    /// 16). Outside imports the writer keeps the default: a server's memory grew by this cache as its writes
    /// filled it (100,000 pending CIBA requests took 1,136 bytes each instead of 209).
    static let bulkWriteCacheKiB = 65_536
    /// SQLite's default page cache, in KiB.
    static let defaultCacheKiB = 2_000

    /// Counts the imports running; the first gives the writer ``bulkWriteCacheKiB`` of page cache and the last
    /// gives it back (two imports that start and end at once may leave the wrong size until the next one: a
    /// matter of speed, never of data). PostgreSQL has no such setting per session of this store.
    public func withBulkUserWrites<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        guard engine == .sqlite else { return try await body() }
        try await countBulkWrites(1)
        do {
            let value = try await body()
            try await countBulkWrites(-1)
            return value
        } catch {
            try? await countBulkWrites(-1)
            throw error
        }
    }

    private func countBulkWrites(_ change: Int) async throws {
        let running = bulkUserWrites.withLock { running in
            running += change
            return running
        }
        guard running == (change > 0 ? 1 : 0) else { return }
        let kibibytes = running > 0 ? Self.bulkWriteCacheKiB : Self.defaultCacheKiB
        try await sql.raw("PRAGMA cache_size = -\(unsafeRaw: String(kibibytes))").run()
    }

    /// In one transaction (`BEGIN IMMEDIATE` on SQLite): `INSERT … SELECT … FROM` the rows as one JSON array `ON
    /// CONFLICT DO NOTHING RETURNING user_id, email`, ``usersPerInsert`` rows a statement; a record whose row did
    /// not come back met an existing id or e-mail (or one earlier in the batch). With `upsert`, each of those is
    /// one `UPDATE … WHERE email = ?`, or `WHERE user_id = ?` when no user has that e-mail. Hashes are stored as
    /// given. The search projection of every user written is rewritten in the same transaction
    /// (``writeSearchProjection(for:on:)``).
    ///
    /// One bound JSON array rather than 14 bound values a row: the database parses the statement once and reads
    /// the rows in C (`jsonb_each`, `jsonb_array_elements`), where serializing and binding 70,000 values a batch
    /// one by one took a third of an import's time (issue 16).
    public func insertUsers(_ records: [UserRecord], upsert: Bool) async throws -> [BulkUserOutcome] {
        guard let first = records.first else { return [] }
        let columns = [("user_id", UserColumnValue.text(nil)), ("created_at", .integer(nil))] + Self.userValues(first)
        let statements = stride(from: 0, to: records.count, by: Self.usersPerInsert).map { start in
            let rows = records[start..<min(start + Self.usersPerInsert, records.count)].map { record in
                JSONValue.array(
                    [.string(record.user.userID), .number(Double(record.user.createdAt.millisecondsSince1970))]
                        + Self.userValues(record).map(\.value.json))
            }
            return self.bulkInsert(columns, rows: JSONValue.array(rows).serialized)
        }
        return try await transaction { db in
            var inserted: [String: Int] = [:]
            var written: [String] = []
            for statement in statements {
                for row in try await db.raw(statement).all() {
                    let userID: String = try row.decode(column: "user_id")
                    let key = Self.insertedKey(userID, try row.decode(column: "email"))
                    inserted[key, default: 0] += 1
                    written.append(userID)
                }
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

    /// `INSERT INTO users (columns) SELECT … FROM` the elements of `rows`, a JSON array of arrays holding the
    /// columns' values in order, `ON CONFLICT DO NOTHING RETURNING user_id, email`. (`WHERE TRUE` is SQLite's
    /// way to tell an upsert clause from a join's `ON`.)
    ///
    /// Both engines read the array in their binary JSON form (`jsonb_each`, `jsonb_array_elements`), parsed once.
    /// Text elements were parsed again for each of the row's 14 columns: 10 % of an import's time on SQLite, 13 %
    /// on PostgreSQL, where it was a fifth of the server's work (issue 16).
    private func bulkInsert(_ columns: [(name: String, value: UserColumnValue)], rows: String) -> SQLQueryString {
        let names = SQLList(columns.map { SQLIdentifier($0.name) })
        let values = SQLList(
            columns.enumerated().map { index, column -> any SQLExpression in
                switch engine {
                case .sqlite:
                    return SQLQueryString("json_extract(value, \(literal: "$[\(index)]"))")
                case .postgres:
                    let text = SQLQueryString("(value ->> \(unsafeRaw: String(index)))")
                    return switch column.value {
                    case .text: text
                    case .integer: SQLQueryString("\(text)::bigint")
                    case .boolean: SQLQueryString("\(text)::boolean")
                    }
                }
            })
        let elements: SQLQueryString =
            switch engine {
            case .sqlite: "jsonb_each(\(bind: rows))"
            case .postgres: "jsonb_array_elements(\(bind: rows)::jsonb) AS element(value)"
            }
        return """
            INSERT INTO users (\(names)) SELECT \(values) FROM \(elements) WHERE TRUE
            ON CONFLICT DO NOTHING RETURNING user_id, email
            """
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
            let row = try await update().where("email", .equal, email).where(Self.databaseUser).returning("user_id")
                .first()
        {
            return try row.decode(column: "user_id", as: String.self)
        }
        return try await update().where("user_id", .equal, record.user.userID).returning("user_id").first()
            .map { try $0.decode(column: "user_id", as: String.self) }
    }
}
