import SQLKit
public import WardenCore
import WardenWire

public import struct Foundation.Date

/// `user_jobs` (one row a job, its summary in columns), `user_job_errors(job_id, entry_index, entry, errors)` and
/// `user_export_parts(job_id, sequence, text)` (SPEC §9 "Bulk users").
extension SQLStore {
    public func insertUserJob(_ job: UserJob) async throws {
        try await UniqueViolation.mapped("A job with this id already exists") {
            try await sql.insert(into: "user_jobs")
                .columns(["id", "type", "connection_id", "upsert", "format", "created_at"] + Self.jobStateColumns)
                .values(
                    [
                        job.id, job.type.rawValue, job.connectionID, job.upsert, job.format,
                        job.createdAt.millisecondsSince1970,
                    ] + Self.jobState(job)
                )
                .run()
        }
    }

    public func userJob(id: String) async throws -> UserJob? {
        try await sql.select().column(SQLLiteral.all).from("user_jobs").where("id", .equal, id).first()
            .map(Self.userJob)
    }

    public func updateUserJob(_ job: UserJob) async throws {
        let update = sql.update("user_jobs")
        for (column, value) in zip(Self.jobStateColumns, Self.jobState(job)) { update.set(column, to: value) }
        guard try await update.where("id", .equal, job.id).returning("id").first() != nil else {
            throw StorageError.notFound
        }
    }

    /// One `UPDATE … WHERE status IN ('pending', 'processing') AND updated_at < ?`.
    public func failInterruptedUserJobs(before date: Date, now: Date) async throws -> Int {
        try await sql.update("user_jobs")
            .set("status", to: UserJob.Status.failed.rawValue)
            .set("failure", to: "The job was interrupted by a stop of the server")
            .set("updated_at", to: now.millisecondsSince1970)
            .where(Self.isIn("status", [UserJob.Status.pending.rawValue, UserJob.Status.processing.rawValue]))
            .where("updated_at", .lessThan, date.millisecondsSince1970)
            .returning("id")
            .all()
            .count
    }

    public func appendUserJobErrors(jobID: String, _ rejections: [UserImportRejection]) async throws {
        guard !rejections.isEmpty else { return }
        try await insertRows(
            into: "user_job_errors", columns: ["job_id", "entry_index", "entry", "errors"], rejections
        ) { rejection in
            [
                jobID, Int64(rejection.index), rejection.user.serialized,
                JSONValue.array(rejection.errors.map(Self.issueJSON)).serialized,
            ]
        }
    }

    public func userJobErrors(jobID: String) async throws -> [UserImportRejection] {
        try await sql.select().column(SQLLiteral.all).from("user_job_errors").where("job_id", .equal, jobID)
            .orderBy("entry_index").all()
            .map { row in
                UserImportRejection(
                    index: Int(try row.value("entry_index", as: Int64.self)), user: try row.json("entry"),
                    errors: try row.json("errors", as: [UserImportIssue].self))
            }
    }

    public func appendUserExportPart(jobID: String, sequence: Int, _ text: String) async throws {
        try await sql.insert(into: "user_export_parts").columns("job_id", "sequence", "text")
            .values(jobID, Int64(sequence), text).run()
    }

    public func userExportParts(jobID: String, after sequence: Int?, limit: Int) async throws -> [(
        sequence: Int, text: String
    )] {
        let select = sql.select().columns("sequence", "text").from("user_export_parts").where("job_id", .equal, jobID)
        if let sequence { select.where("sequence", .greaterThan, Int64(sequence)) }
        return try await select.orderBy("sequence").limit(limit).all().map { row in
            (Int(try row.value("sequence", as: Int64.self)), try row.value("text"))
        }
    }

    /// The columns a job's progress changes.
    private static let jobStateColumns = ["status", "updated_at", "inserted", "updated", "failed", "total", "failure"]

    private static func jobState(_ job: UserJob) -> [any Encodable & Sendable] {
        [
            job.status.rawValue, job.updatedAt.millisecondsSince1970, Int64(job.summary.inserted),
            Int64(job.summary.updated), Int64(job.summary.failed), Int64(job.summary.total), job.failure,
        ]
    }

    private static func issueJSON(_ issue: UserImportIssue) -> JSONValue {
        ["code": .string(issue.code.rawValue), "message": .string(issue.message), "path": .string(issue.path)]
    }

    private static func userJob(_ row: any SQLRow) throws -> UserJob {
        var job = UserJob(
            id: try row.value("id"), type: UserJob.Kind(rawValue: try row.value("type")),
            connectionID: try row.value("connection_id"), upsert: try row.value("upsert"),
            format: try row.value("format"), createdAt: try row.date("created_at"))
        job.status = UserJob.Status(rawValue: try row.value("status"))
        job.updatedAt = try row.date("updated_at")
        job.summary = UserImportSummary(
            inserted: Int(try row.value("inserted", as: Int64.self)),
            updated: Int(try row.value("updated", as: Int64.self)),
            failed: Int(try row.value("failed", as: Int64.self)),
            total: Int(try row.value("total", as: Int64.self)))
        job.failure = try row.value("failure")
        return job
    }
}
