import Foundation
import Logging
import ServiceLifecycle
import WardenCore

/// Deletes what has outlived its use: expired single-use artefacts (login transactions included), ended
/// sessions, CIBA requests a day after their expiry (until then a poll still gets `expired_token`, SPEC §6.2),
/// expired device transactions, login failures older than the lockout window (those of unknown addresses
/// included) and ended locks, undeliverable jobs, log events past `--log-retention-days` (SPEC §10), and this
/// node's memory of expired requests. Every node runs it; the deletes are idempotent. Every purge goes in batches
/// of at most ``batchSize`` rows, each sized to hold the database about ``batchTarget``, with a ``batchPause``
/// between them (SPEC §11: an anonymous flood, or a month of events, is cleaned up without holding the database),
/// and the first pass runs one ``interval`` after start-up, never before the node is ready.
struct HousekeepingService: Service {
    let runtime: WardenRuntime
    static let interval = Duration.seconds(60)
    /// How long an expired CIBA request is kept so that polls are told it expired.
    static let backchannelRetention: Double = 86400
    /// How long a finished bulk-user job, its errors and its export file stay readable (SPEC §9).
    static let userJobRetention: Double = 86400
    /// The most rows one purge statement deletes.
    static let batchSize = 1000
    /// The fewest rows a purge statement deletes once its batches have shrunk (``nextBatch(after:took:)``).
    static let smallestBatch = 50
    /// How long one purge statement should hold the database. A row's cost varies with the table and its size
    /// (with 5,000,000 events and four indexes, a 1,000-row delete took up to 150 ms, and `/readyz` waited behind
    /// it, issue 16), so each purge adapts its batch to this.
    static let batchTarget = Duration.milliseconds(20)
    /// The pause between two full batches, leaving the database to requests.
    static let batchPause = Duration.milliseconds(20)

    func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do {
                    try await Task.sleep(for: Self.interval)
                } catch {
                    return
                }
                await sweep()
            }
        }
    }

    /// One pass (also called by tests).
    func sweep() async {
        let now = runtime.clock.now()
        runtime.backchannelPolls.removeExpired(before: now)
        await runtime.deliveries.purgeExpired()
        do {
            try await purge(.artefacts, endedBefore: now)
            try await purge(.deviceTransactions, endedBefore: now)
            try await purge(.loginFailures, endedBefore: now.addingTimeInterval(-PasswordAuthenticator.failureWindow))
            try await purge(.loginLocks, endedBefore: now)
            // Registered clients unused for 30 days (SPEC §13); the caches of every node forget them.
            if try await purge(.registeredClients, endedBefore: now) > 0 { try await runtime.tenantChanged() }
            try await purge(.sessions, endedBefore: now)
            try await purge(.backchannelRequests, endedBefore: now.addingTimeInterval(-Self.backchannelRetention))
            try await purge(.loginChallenges, endedBefore: now)
            try await purge(.userJobs, endedBefore: now.addingTimeInterval(-Self.userJobRetention))
            let logRetention = Double(runtime.configuration.logRetentionDays) * 86400
            let purgedLogs = try await purge(.logs, endedBefore: now.addingTimeInterval(-logRetention))
            if purgedLogs > 0 { runtime.logger.info("purged old log events", metadata: ["count": "\(purgedLogs)"]) }
        } catch {
            runtime.logger.warning("housekeeping failed", metadata: ["error": "\(error)"])
        }
    }

    /// Deletes every record of `kind` that ended before `date`, batch after batch; returns how many.
    @discardableResult
    private func purge(_ kind: EndingRecords, endedBefore date: Date) async throws -> Int {
        var total = 0
        var limit = Self.batchSize
        while true {
            let started = ContinuousClock.now
            let deleted = try await runtime.store.purgeBatch(kind, endedBefore: date, limit: limit)
            total += deleted
            guard deleted == limit else { return total }
            limit = Self.nextBatch(after: limit, took: ContinuousClock.now - started)
            try await Task.sleep(for: Self.batchPause)
        }
    }

    /// The size of the next batch of a purge whose last batch of `limit` rows took `took`: halved when it held
    /// the database longer than ``batchTarget`` (not below ``smallestBatch``), doubled when it took under half
    /// of it (not above ``batchSize``), else the same.
    static func nextBatch(after limit: Int, took: Duration) -> Int {
        if took > batchTarget { return max(smallestBatch, limit / 2) }
        if took < batchTarget / 2 { return min(batchSize, limit * 2) }
        return limit
    }
}
