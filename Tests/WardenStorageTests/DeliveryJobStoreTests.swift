import Foundation
import Testing
import WardenCore
import WardenWire

@testable import WardenStorage

/// The store claims every due job and purges every expired one, whoever stored it. So that tests sharing one
/// PostgreSQL database (with the servers other suites run on it) never take each other's jobs, each test works
/// in an hour of its own: a random one in the 22nd century where jobs are claimed, one before 2010 where they are
/// purged (a purge takes only jobs that expired long ago, and no claim at a later time finds these unexpired).
@Suite("DeliveryJobStore: claims, leases, retries and purges")
struct DeliveryJobStoreTests {
    /// A random instant between 2100 and about 2195, in whole milliseconds.
    private static func futureEpoch() -> Date {
        Date(millisecondsSince1970: Int64.random(in: 4_102_444_800_000..<7_102_444_800_000))
    }

    /// A random instant between 2000 and 2010, in whole milliseconds.
    private static func pastEpoch() -> Date {
        Date(millisecondsSince1970: Int64.random(in: 946_684_800_000..<1_262_304_000_000))
    }

    /// `seconds` after `date`, in whole milliseconds (as stored).
    private static func at(_ date: Date, _ seconds: Double) -> Date {
        Date(millisecondsSince1970: date.millisecondsSince1970 + Int64((seconds * 1000).rounded()))
    }

    /// A job due at `due` (seconds after `epoch`), expiring an hour after `epoch` unless told otherwise.
    private static func job(
        _ epoch: Date, due: Double = 0, expiresIn: Double = 3600, attempts: Int = 0, kind: DeliveryJob.Kind = .push
    ) -> DeliveryJob {
        DeliveryJob(
            id: uniqueID("job"), kind: kind, payload: #"{"device":"dev_1","body":{"text":"Approve?","n":[1,2]}}"#,
            attempts: attempts, nextAttemptAt: at(epoch, due), expiresAt: at(epoch, expiresIn),
            createdAt: at(epoch, -1))
    }

    /// `job` as a claim at `now` with a lease until `leaseUntil` leaves it.
    private static func claimed(_ job: DeliveryJob, until leaseUntil: Date) -> DeliveryJob {
        var claimed = job
        claimed.attempts += 1
        claimed.nextAttemptAt = leaseUntil
        return claimed
    }

    @Test("a due job is claimed with its lease, and not again before the lease ends", arguments: TestDatabase.available)
    func claimAndLease(database: TestDatabase) async throws {
        try await database.withStore { store in
            let epoch = Self.futureEpoch()
            let due = Self.job(epoch, kind: .backchannelMail)
            var later = Self.job(epoch, due: 10, kind: "custom_kind")
            later.lastError = "an earlier failure"
            try await store.insertDeliveryJobs([due, later])
            await #expect(throws: StorageError.self) { try await store.insertDeliveryJobs([due]) }

            let lease = Self.at(epoch, 30)
            let first = try await store.claimDeliveryJobs(now: epoch, leaseUntil: lease, limit: 10)
            #expect(first == [Self.claimed(due, until: lease)], "every field as stored, attempts + 1, the lease")
            #expect(try await store.claimDeliveryJobs(now: Self.at(epoch, 5), leaseUntil: lease, limit: 10) == [])

            let laterLease = Self.at(epoch, 40)
            #expect(
                try await store.claimDeliveryJobs(now: Self.at(epoch, 10), leaseUntil: laterLease, limit: 10)
                    == [Self.claimed(later, until: laterLease)], "due at 10 s; the first job is still leased")
            #expect(
                try await store.claimDeliveryJobs(now: Self.at(epoch, 29.999), leaseUntil: laterLease, limit: 10) == [])

            // The lease lapsed (the claimer died): another claim gets it again.
            let again = Self.at(epoch, 90)
            #expect(
                try await store.claimDeliveryJobs(now: lease, leaseUntil: again, limit: 10)
                    == [Self.claimed(Self.claimed(due, until: lease), until: again)])
        }
    }

    @Test(
        "a job stored as being attempted (attempts 1, due later) is not claimed before then",
        arguments: TestDatabase.available)
    func storedWhileAttempting(database: TestDatabase) async throws {
        try await database.withStore { store in
            let epoch = Self.futureEpoch()
            let job = Self.job(epoch, due: 60, attempts: 1, kind: .backchannelPing)
            try await store.insertDeliveryJobs([job])
            #expect(try await store.claimDeliveryJobs(now: epoch, leaseUntil: Self.at(epoch, 60), limit: 10) == [])
            let lease = Self.at(epoch, 120)
            let claimed = try await store.claimDeliveryJobs(now: Self.at(epoch, 60), leaseUntil: lease, limit: 10)
            #expect(claimed == [Self.claimed(job, until: lease)])
            #expect(claimed.first?.attempts == 2)
        }
    }

    @Test("a claim takes at most limit jobs, the longest due first", arguments: TestDatabase.available)
    func limit(database: TestDatabase) async throws {
        try await database.withStore { store in
            let epoch = Self.futureEpoch()
            let jobs = [Self.job(epoch, due: 3), Self.job(epoch, due: 1), Self.job(epoch, due: 2)]
            try await store.insertDeliveryJobs(jobs)
            let now = Self.at(epoch, 5)
            let lease = Self.at(epoch, 60)
            #expect(
                try await store.claimDeliveryJobs(now: now, leaseUntil: lease, limit: 2).map(\.id)
                    == [jobs[1].id, jobs[2].id])
            #expect(try await store.claimDeliveryJobs(now: now, leaseUntil: lease, limit: 2).map(\.id) == [jobs[0].id])
            #expect(try await store.claimDeliveryJobs(now: now, leaseUntil: lease, limit: 2) == [])
            #expect(try await store.claimDeliveryJobs(now: now, leaseUntil: lease, limit: 0) == [])
        }
    }

    @Test(
        "reschedule records the error (500 characters at most) and the next attempt", arguments: TestDatabase.available)
    func reschedule(database: TestDatabase) async throws {
        try await database.withStore { store in
            let epoch = Self.futureEpoch()
            let job = Self.job(epoch)
            try await store.insertDeliveryJobs([job])
            let lease = Self.at(epoch, 60)
            let first = try #require(try await store.claimDeliveryJobs(now: epoch, leaseUntil: lease, limit: 10).first)

            let error = "APNs answered 503: " + String(repeating: "é", count: 600)
            let retryAt = Self.at(epoch, 8)
            try await store.rescheduleDeliveryJob(id: job.id, at: retryAt, error: error)
            #expect(try await store.claimDeliveryJobs(now: Self.at(epoch, 7.999), leaseUntil: lease, limit: 10) == [])

            let secondLease = Self.at(epoch, 68)
            var expected = Self.claimed(first, until: secondLease)
            expected.lastError = String(error.prefix(500))
            let second = try await store.claimDeliveryJobs(now: retryAt, leaseUntil: secondLease, limit: 10)
            #expect(second == [expected])
            #expect(second.first?.attempts == 2)
            #expect(second.first?.lastError?.count == 500)

            // A short error is kept whole, replacing the previous one.
            try await store.rescheduleDeliveryJob(id: job.id, at: Self.at(epoch, 70), error: "timed out")
            let third = try await store.claimDeliveryJobs(
                now: Self.at(epoch, 70), leaseUntil: Self.at(epoch, 99), limit: 10)
            #expect(third.map(\.lastError) == ["timed out"])
            #expect(third.map(\.attempts) == [3])

            // Rescheduling or deleting a job that is gone does nothing.
            try await store.rescheduleDeliveryJob(id: uniqueID("job"), at: epoch, error: "gone")
            try await store.deleteDeliveryJob(id: uniqueID("job"))
        }
    }

    @Test("a deleted job is never claimed", arguments: TestDatabase.available)
    func delete(database: TestDatabase) async throws {
        try await database.withStore { store in
            let epoch = Self.futureEpoch()
            let deleted = Self.job(epoch)
            let kept = Self.job(epoch, due: 1)
            try await store.insertDeliveryJobs([deleted, kept])
            try await store.deleteDeliveryJob(id: deleted.id)
            let lease = Self.at(epoch, 60)
            #expect(
                try await store.claimDeliveryJobs(now: Self.at(epoch, 1), leaseUntil: lease, limit: 10)
                    == [Self.claimed(kept, until: lease)])
        }
    }

    @Test("expired jobs are not claimed; the purge removes and returns them", arguments: TestDatabase.available)
    func expiredAndPurged(database: TestDatabase) async throws {
        try await database.withStore { store in
            let epoch = Self.pastEpoch()
            let expired = Self.job(epoch, expiresIn: 30)
            var failed = Self.job(epoch, due: 10, expiresIn: 60, attempts: 4, kind: .backchannelMail)
            failed.lastError = "550 mailbox unavailable"
            let live = Self.job(epoch, due: 20, expiresIn: 3600)
            try await store.insertDeliveryJobs([expired, failed, live])
            let ids = Set([expired.id, failed.id, live.id])
            func mine(_ jobs: [DeliveryJob]) -> [DeliveryJob] { jobs.filter { ids.contains($0.id) } }

            let lease = Self.at(epoch, 120)
            let claimed = try await store.claimDeliveryJobs(now: Self.at(epoch, 60), leaseUntil: lease, limit: 1000)
            #expect(mine(claimed).allSatisfy { $0.id == live.id }, "expired at 30 s and 60 s")

            // Expiring exactly at the date is not expired before it.
            #expect(mine(try await store.purgeDeliveryJobs(expiredBefore: Self.at(epoch, 30), limit: 1000)) == [])
            let purged = try await store.purgeDeliveryJobs(expiredBefore: Self.at(epoch, 61), limit: 1000)
            for job in mine(purged) {
                #expect(job == (job.id == expired.id ? expired : failed), "as stored")
            }
            #expect(mine(try await store.purgeDeliveryJobs(expiredBefore: Self.at(epoch, 61), limit: 1000)) == [])
            let afterPurge = try await store.claimDeliveryJobs(now: Self.at(epoch, 10), leaseUntil: lease, limit: 1000)
            #expect(mine(afterPurge) == [], "the purged jobs are gone")

            // On a shared database, a server's purge (of jobs expired before the real now) may take these jobs
            // first: the exact outcome is checked where the database is the test's own.
            if database.isIsolated {
                #expect(claimed == [Self.claimed(live, until: lease)])
                #expect(Set(purged.map(\.id)) == [expired.id, failed.id])
                let secondLease = Self.at(epoch, 180)
                #expect(
                    try await store.claimDeliveryJobs(now: lease, leaseUntil: secondLease, limit: 10)
                        == [Self.claimed(Self.claimed(live, until: lease), until: secondLease)], "the live job stays")
            }
            try await store.deleteDeliveryJob(id: live.id)
        }
    }

    @Test("20 concurrent claimers of 10 due jobs: each job is claimed exactly once", arguments: TestDatabase.available)
    func concurrentClaimers(database: TestDatabase) async throws {
        try await database.withStore { store in
            let epoch = Self.futureEpoch()
            let jobs = (0..<10).map { Self.job(epoch, due: Double($0) / 1000) }
            try await store.insertDeliveryJobs(jobs)
            let now = Self.at(epoch, 1)
            let lease = Self.at(epoch, 60)
            let claims = try await withThrowingTaskGroup(of: [DeliveryJob].self) { group in
                for index in 0..<20 {
                    group.addTask {
                        try await store.claimDeliveryJobs(now: now, leaseUntil: lease, limit: 1 + index % 10)
                    }
                }
                return try await group.reduce(into: []) { $0 += $1 }
            }
            #expect(claims.count == 10)
            #expect(Set(claims.map(\.id)) == Set(jobs.map(\.id)))
            #expect(claims.allSatisfy { $0.attempts == 1 && $0.nextAttemptAt == lease })
            #expect(try await store.claimDeliveryJobs(now: now, leaseUntil: lease, limit: 10) == [])
        }
    }

    @Test(
        "a batch larger than one INSERT is stored all or none (a repeated id in its last statement stores nothing)",
        arguments: TestDatabase.available)
    func largeBatches(database: TestDatabase) async throws {
        try await database.withStore { store in
            let epoch = Self.futureEpoch()
            let refused = (0..<1_100).map { _ in Self.job(epoch, expiresIn: 60) }
            await #expect(throws: StorageError.self) {
                try await store.insertDeliveryJobs(refused + [refused[3]])
            }
            #expect(try await store.claimDeliveryJobs(now: epoch, leaseUntil: Self.at(epoch, 30), limit: 10) == [])
            try await store.insertDeliveryJobs(refused)
            let claimed = try await store.claimDeliveryJobs(now: epoch, leaseUntil: Self.at(epoch, 30), limit: 2_000)
            #expect(Set(claimed.map(\.id)) == Set(refused.map(\.id)))
            for job in claimed { try await store.deleteDeliveryJob(id: job.id) }
        }
    }
}
