import SQLKit
public import WardenCore

public import struct Foundation.Date

/// Bounded purges (ARCHITECTURE: housekeeping deletes in bounded batches, so a backlog never holds SQLite's one
/// writer, nor a PostgreSQL transaction, for long).
extension SQLStore {
    /// One `DELETE FROM table WHERE rowid IN (SELECT rowid FROM table WHERE column < date LIMIT n)` — `ctid` on
    /// PostgreSQL, which has no `rowid` — so each call deletes at most `limit` rows, found through the
    /// column's index (for sessions, either end's: `expires_at < date OR idle_expires_at < date`).
    public func purgeBatch(_ kind: EndingRecords, endedBefore date: Date, limit: Int) async throws -> Int {
        if kind == .registeredClients { return try await purgeRegisteredClients(endedBefore: date, limit: limit) }
        if kind == .userJobs { return try await purgeUserJobs(endedBefore: date, limit: limit) }
        guard let (table, columns) = Self.endColumns[kind],
            let ended = Self.anyOf(columns.map { Self.before($0, date) })
        else { return 0 }
        let row = engine == .sqlite ? "rowid" : "ctid"
        let batch = sql.select().column(row).from(table).where(ended).limit(limit)
        return try await sql.delete(from: table)
            .where(SQLColumn(row), .in, SQLGroupExpression(batch.select))
            .returning(SQLLiteral.numeric("1"))
            .all().count
    }

    /// Registered clients past `expires_at` (SPEC §13), their client grants and connection entries, in one
    /// transaction.
    private func purgeRegisteredClients(endedBefore date: Date, limit: Int) async throws -> Int {
        try await transaction { db in
            let ids = try await db.select().column("client_id").from("clients")
                .where("expires_at", .lessThan, date.millisecondsSince1970).limit(limit)
                .all(decodingColumn: "client_id", as: String.self)
            guard !ids.isEmpty else { return 0 }
            try await db.delete(from: "client_grants").where("client_id", .in, ids).run()
            try await db.delete(from: "connection_clients").where("client_id", .in, ids).run()
            try await db.delete(from: "clients").where("client_id", .in, ids).run()
            return ids.count
        }
    }

    /// Finished jobs last updated before `date`: first their export parts, then their errors, then the jobs left
    /// without either — at most `limit` rows in all, so a purge of a million-user export is many small batches.
    private func purgeUserJobs(endedBefore date: Date, limit: Int) async throws -> Int {
        let row = engine == .sqlite ? "rowid" : "ctid"
        let finished = SQLQueryString(
            "SELECT id FROM user_jobs WHERE status IN ('completed', 'failed') AND updated_at < \(bind: date.millisecondsSince1970)"
        )
        var deleted = 0
        for table in ["user_export_parts", "user_job_errors"] where deleted < limit {
            let batch = sql.select().column(row).from(table)
                .where(SQLColumn("job_id"), .in, SQLGroupExpression(finished)).limit(limit - deleted)
            deleted += try await sql.delete(from: table)
                .where(SQLColumn(row), .in, SQLGroupExpression(batch.select))
                .returning(SQLLiteral.numeric("1")).all().count
        }
        guard deleted < limit else { return deleted }
        let empty = sql.select().column("id").from("user_jobs")
            .where(SQLColumn("id"), .in, SQLGroupExpression(finished))
            .where(SQLRaw("NOT EXISTS (SELECT 1 FROM user_export_parts p WHERE p.job_id = user_jobs.id)"))
            .where(SQLRaw("NOT EXISTS (SELECT 1 FROM user_job_errors e WHERE e.job_id = user_jobs.id)"))
            .limit(limit - deleted)
        return deleted
            + (try await sql.delete(from: "user_jobs").where(SQLColumn("id"), .in, SQLGroupExpression(empty.select))
                .returning(SQLLiteral.numeric("1")).all().count)
    }

    /// `column < date`.
    private static func before(_ column: String, _ date: Date) -> any SQLExpression {
        SQLBinaryExpression(SQLColumn(column), .lessThan, SQLBind(date.millisecondsSince1970))
    }

    /// The table and end columns (a record ends at the first of them) of each kind of record.
    private static let endColumns: [EndingRecords: (table: String, columns: [String])] = [
        .artefacts: ("artefacts", ["expires_at"]),
        .deviceTransactions: ("device_transactions", ["expires_at"]),
        .loginFailures: ("login_failures", ["at"]),
        .loginLocks: ("login_locks", ["locked_until"]),
        .logs: ("logs", ["date"]),
        .sessions: ("sessions", ["expires_at", "idle_expires_at"]),
        .backchannelRequests: ("ciba_requests", ["expires_at"]),
        .loginChallenges: ("login_challenges", ["expires_at"]),
    ]
}
