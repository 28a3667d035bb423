import SQLKit
public import WardenCore

public import struct Foundation.Date

/// `delivery_jobs(id, kind, payload, attempts, next_attempt_at, expires_at, created_at, last_error)`: the outbox.
/// A job is due when `next_attempt_at <= now < expires_at`; a claim moves `next_attempt_at` to the end of the
/// claimer's lease.
extension SQLStore {
    /// The longest `last_error` kept, in characters.
    static let deliveryErrorLimit = 500

    /// Multi-row `INSERT`s in one transaction: all or none. Throws ``StorageError/conflict(_:)``, having
    /// inserted nothing, when a job id exists or repeats.
    public func insertDeliveryJobs(_ jobs: [DeliveryJob]) async throws {
        guard !jobs.isEmpty else { return }
        try await UniqueViolation.mapped("A delivery job with this id already exists") {
            try await transaction { db in try await Self.insert(jobs, on: db) }
        }
    }

    /// Multi-row `INSERT`s of `jobs` on `db`, the connection of a transaction the caller runs.
    static func insert(_ jobs: [DeliveryJob], on db: any SQLDatabase) async throws {
        var start = jobs.startIndex
        while start < jobs.endIndex {
            let end = min(start + rowsPerInsert, jobs.endIndex)
            let insert = db.insert(into: "delivery_jobs").columns(
                "id", "kind", "payload", "attempts", "next_attempt_at", "expires_at", "created_at", "last_error")
            for job in jobs[start..<end] {
                insert.values(
                    job.id, job.kind.rawValue, job.payload, job.attempts, job.nextAttemptAt.millisecondsSince1970,
                    job.expiresAt.millisecondsSince1970, job.createdAt.millisecondsSince1970,
                    job.lastError.map(truncatedDeliveryError))
            }
            try await insert.run()
            start = end
        }
    }

    /// A `SELECT` of up to `limit` due jobs (`next_attempt_at <= now AND expires_at > now`, oldest due first),
    /// then for each a compare-and-swap `UPDATE … SET attempts = attempts + 1, next_attempt_at = leaseUntil WHERE
    /// id = ? AND next_attempt_at = <read> AND attempts = <read> RETURNING *`, each statement committed on its
    /// own. Every claim changes `attempts`, so of concurrent claimers that read the same job only the first
    /// UPDATE matches: SQLite runs them one at a time, and PostgreSQL (READ COMMITTED included) makes the others
    /// wait for its row lock, then re-checks their `WHERE` against the claimed row, which no longer matches.
    /// A job lost that way is skipped, so fewer than `limit` may be returned while more are due.
    public func claimDeliveryJobs(now: Date, leaseUntil: Date, limit: Int) async throws -> [DeliveryJob] {
        guard limit > 0 else { return [] }
        let nowMilliseconds = now.millisecondsSince1970
        let candidates = try await sql.select().columns("id", "next_attempt_at", "attempts").from("delivery_jobs")
            .where("next_attempt_at", .lessThanOrEqual, nowMilliseconds)
            .where("expires_at", .greaterThan, nowMilliseconds)
            .orderBy("next_attempt_at").orderBy("id")
            .limit(limit)
            .all()
        var claimed: [DeliveryJob] = []
        for candidate in candidates {
            let row = try await sql.update("delivery_jobs")
                .set("attempts", to: SQLBinaryExpression(SQLColumn("attempts"), .add, SQLLiteral.numeric("1")))
                .set("next_attempt_at", to: leaseUntil.millisecondsSince1970)
                .where("id", .equal, try candidate.value("id", as: String.self))
                .where("next_attempt_at", .equal, try candidate.value("next_attempt_at", as: Int64.self))
                .where("attempts", .equal, try candidate.value("attempts", as: Int64.self))
                .returning(SQLLiteral.all)
                .first()
            if let row { claimed.append(try Self.deliveryJob(row)) }
        }
        return claimed
    }

    /// One `DELETE`; deleting a job that is gone does nothing.
    public func deleteDeliveryJob(id: String) async throws {
        try await sql.delete(from: "delivery_jobs").where("id", .equal, id).run()
    }

    /// One `UPDATE` of `next_attempt_at` and `last_error` (cut to its first 500 characters); rescheduling a job
    /// that is gone (delivered or purged meanwhile) does nothing.
    public func rescheduleDeliveryJob(id: String, at date: Date, error: String) async throws {
        try await sql.update("delivery_jobs")
            .set("next_attempt_at", to: date.millisecondsSince1970)
            .set("last_error", to: Self.truncatedDeliveryError(error))
            .where("id", .equal, id)
            .run()
    }

    /// One `DELETE … WHERE id IN (SELECT id … WHERE expires_at < date LIMIT limit) RETURNING *`: each job is
    /// returned by exactly one purge.
    public func purgeDeliveryJobs(expiredBefore date: Date, limit: Int) async throws -> [DeliveryJob] {
        let batch = sql.select().column("id").from("delivery_jobs")
            .where("expires_at", .lessThan, date.millisecondsSince1970).limit(limit)
        return try await sql.delete(from: "delivery_jobs")
            .where(SQLColumn("id"), .in, SQLGroupExpression(batch.select))
            .returning(SQLLiteral.all)
            .all()
            .map(Self.deliveryJob)
    }

    private static func truncatedDeliveryError(_ error: String) -> String {
        String(error.prefix(deliveryErrorLimit))
    }

    private static func deliveryJob(_ row: any SQLRow) throws -> DeliveryJob {
        DeliveryJob(
            id: try row.value("id"), kind: DeliveryJob.Kind(rawValue: try row.value("kind")),
            payload: try row.value("payload"), attempts: try row.value("attempts"),
            nextAttemptAt: try row.date("next_attempt_at"), expiresAt: try row.date("expires_at"),
            createdAt: try row.date("created_at"), lastError: try row.value("last_error"))
    }
}
