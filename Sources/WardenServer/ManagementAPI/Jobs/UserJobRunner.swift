import Foundation
import Logging
import WardenCore
import WardenWire

/// Runs bulk-users jobs in the background (SPEC §9 "Bulk users"): an import of an uploaded users file through
/// ``UserImporter``, an export of every user as one JSON object a line. A job records its progress after each
/// batch; one that is pending or processing and has not moved for ``staleAfter`` was interrupted (the server
/// stopped) and is marked failed when the server starts and whenever a job is read.
struct UserJobRunner: Sendable {
    /// How long a running job may go without recording progress (a batch takes well under a second).
    static let staleAfter: TimeInterval = 60
    /// Users per export part (one stored row, one write of the download).
    static let usersPerExportPart = 1_000

    let store: any WardenStore
    let eventLog: EventLog
    let clock: any WardenClock
    let logger: Logger

    /// Marks interrupted jobs failed (see the type's description).
    func failInterruptedJobs() async throws {
        let now = clock.now()
        let failed = try await store.failInterruptedUserJobs(before: now.addingTimeInterval(-Self.staleAfter), now: now)
        if failed > 0 {
            logger.notice("bulk-users jobs interrupted by a stop marked failed", metadata: ["jobs": "\(failed)"])
        }
    }

    /// Starts importing `file` for `job` (already stored, pending) and returns at once.
    func startImport(_ job: UserJob, file: [UInt8], clientID: String?) {
        Task { await runImport(job, file: file, clientID: clientID) }
    }

    /// Starts exporting every user for `job` (already stored, pending) and returns at once.
    func startExport(_ job: UserJob, clientID: String?) {
        Task { await runExport(job, clientID: clientID) }
    }

    private func runImport(_ job: UserJob, file: [UInt8], clientID: String?) async {
        var job = job
        var remaining: [UInt8]? = file
        await run(&job, succeeded: .usersImportSucceeded, failed: .usersImportFailed, clientID: clientID) { job in
            let importer = UserImporter(store: store, clock: clock, upsert: job.upsert)
            let summary = try await importer.run(
                nextChunk: {
                    defer { remaining = nil }
                    return remaining
                },
                rejected: { try await store.appendUserJobErrors(jobID: job.id, $0) },
                progress: { summary in
                    job.summary = summary
                    try await record(&job)
                })
            job.summary = summary
        }
    }

    private func runExport(_ job: UserJob, clientID: String?) async {
        var job = job
        await run(&job, succeeded: .usersExportSucceeded, failed: .usersExportFailed, clientID: clientID) { job in
            var after: String?
            var sequence = 0
            while true {
                let users = try await store.users(after: after, limit: Self.usersPerExportPart)
                guard let last = users.last else { break }
                let text = users.map { UserExportFormat.line($0.user) }.joined()
                try await store.appendUserExportPart(jobID: job.id, sequence: sequence, text)
                sequence += 1
                after = last.user.userID
                try await record(&job)
            }
        }
    }

    /// Moves the job to processing, runs `body`, and records how it ended, with its log event.
    private func run(
        _ job: inout UserJob, succeeded: LogEventType, failed: LogEventType, clientID: String?,
        _ body: (inout UserJob) async throws -> Void
    ) async {
        do {
            job.status = .processing
            try await record(&job)
            try await body(&job)
            job.status = .completed
        } catch {
            job.status = .failed
            job.failure = (error as? UsersFileSplitter.FormatError)?.message ?? "The job could not complete"
            logger.error("bulk-users job failed", metadata: ["job": "\(job.id)", "error": "\(error)"])
        }
        do {
            try await record(&job)
        } catch {
            logger.error("bulk-users job state not saved", metadata: ["job": "\(job.id)", "error": "\(error)"])
        }
        var details: [String: JSONValue] = ["job_id": .string(job.id), "status": .string(job.status.rawValue)]
        if job.type == .usersImport {
            details["summary"] = UserJobRepresentation.summary(job.summary)
        }
        if let failure = job.failure { details["failure"] = .string(failure) }
        eventLog.record(
            LogEvent(
                date: clock.now(), type: job.status == .completed ? succeeded : failed,
                description: job.type == .usersImport ? "Users import" : "Users export", clientID: clientID,
                details: details))
    }

    /// Saves the job's state with `updatedAt` now: its progress, and the sign that it is alive.
    private func record(_ job: inout UserJob) async throws {
        job.updatedAt = clock.now()
        try await store.updateUserJob(job)
    }
}
