import Foundation
import Logging
public import ServiceLifecycle
import Synchronization
import WardenCore
import WardenWire

/// Gets messages out without ever losing them (SPEC §6.1 "Delivery", §6.3): a job is stored before its
/// first attempt, attempted at once by the node that created it, and otherwise claimed by any node's sweep
/// when due; a failed attempt is retried with exponential backoff (2 s, 4 s, … up to 5 min) until it
/// succeeds or its request expires. A node that dies mid-attempt leaves a claim that lapses after
/// ``lease``, after which another node retries.
public final class DeliveryService: Service {
    /// How long a claim keeps other nodes off a job.
    static let lease: Double = 60
    /// The longest wait between two attempts.
    static let maximumBackoff: Double = 300
    /// The most attempts of one job.
    static let maximumAttempts = 20
    /// The most jobs attempted at once by this node.
    static let concurrency = 16
    /// How often the sweep looks for due jobs when nobody wakes it.
    static let sweepInterval = Duration.seconds(1)

    private let store: any DeliveryJobStore
    private let clock: any WardenClock
    private let logger: Logger
    private let handlers = Mutex<[DeliveryJob.Kind: any DeliveryHandler]>([:])
    private let inFlight = Atomic<Int>(0)
    private let wake: AsyncStream<Void>.Continuation
    private let wakeups: AsyncStream<Void>

    init(store: any DeliveryJobStore, clock: any WardenClock, logger: Logger) {
        self.store = store
        self.clock = clock
        self.logger = logger
        (wakeups, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// Adds the handler of a job kind (at start-up).
    func register(_ handler: any DeliveryHandler) {
        handlers.withLock { $0[handler.kind] = handler }
    }

    /// Stores a job and attempts it now in the background when this node has room, else wakes the sweep.
    /// Throws only when the job cannot be stored.
    func submit(kind: DeliveryJob.Kind, payload: String, expiresAt: Date) async throws {
        try await submit(kind: kind, payloads: [payload], expiresAt: expiresAt)
    }

    /// Stores jobs of one kind together (all or none), attempts as many now as this node has room for and
    /// leaves the rest to the sweep, which it wakes. Throws only when the jobs cannot be stored.
    func submit(kind: DeliveryJob.Kind, payloads: [String], expiresAt: Date) async throws {
        guard !payloads.isEmpty else { return }
        let prepared = prepare(kind: kind, payloads: payloads, expiresAt: expiresAt)
        do {
            try await store.insertDeliveryJobs(prepared.jobs)
        } catch {
            release(prepared)
            throw error
        }
        dispatch(prepared)
    }

    /// Jobs made by ``prepare(kind:payloads:expiresAt:)`` for a caller that stores them in a transaction of its
    /// own (a CIBA request and its e-mail): once stored they go to ``dispatch(_:)``, and when they were not,
    /// to ``release(_:)``.
    struct PreparedJobs: Sendable {
        let jobs: [DeliveryJob]
        /// How many of ``jobs`` (the first ones) this node reserved room to attempt at once: stored with
        /// `attempts = 1` and a lease, so that no sweep claims them meanwhile.
        let attemptNow: Int
    }

    /// Makes the jobs of `payloads`, reserving room for as many immediate attempts as this node has.
    func prepare(kind: DeliveryJob.Kind, payloads: [String], expiresAt: Date) -> PreparedJobs {
        let now = clock.now()
        let reserved = inFlight.add(payloads.count, ordering: .relaxed).newValue
        let attemptNow = max(0, min(payloads.count, Self.concurrency - (reserved - payloads.count)))
        inFlight.subtract(payloads.count - attemptNow, ordering: .relaxed)
        let jobs = payloads.enumerated().map { index, payload in
            DeliveryJob(
                id: RandomToken.identifier(prefix: "job_"), kind: kind, payload: payload,
                attempts: index < attemptNow ? 1 : 0,
                nextAttemptAt: index < attemptNow ? now.addingTimeInterval(Self.lease) : now, expiresAt: expiresAt,
                createdAt: now)
        }
        return PreparedJobs(jobs: jobs, attemptNow: attemptNow)
    }

    /// Attempts the stored `prepared` jobs this node reserved room for, and wakes the sweep for the others.
    func dispatch(_ prepared: PreparedJobs) {
        if prepared.attemptNow < prepared.jobs.count { wake.yield() }
        for job in prepared.jobs.prefix(prepared.attemptNow) {
            Task {
                await attempt(job)
                inFlight.subtract(1, ordering: .relaxed)
            }
        }
    }

    /// Gives back the room `prepared` reserved, its jobs not having been stored.
    func release(_ prepared: PreparedJobs) {
        inFlight.subtract(prepared.attemptNow, ordering: .relaxed)
    }

    /// Claims and attempts the jobs due now; returns how many it attempted. The service calls it every
    /// second and when woken; tests call it after moving the clock.
    @discardableResult
    func runDue() async -> Int {
        var attempted = 0
        while true {
            let now = clock.now()
            let room = max(1, Self.concurrency - inFlight.load(ordering: .relaxed))
            let jobs: [DeliveryJob]
            do {
                jobs = try await store.claimDeliveryJobs(
                    now: now, leaseUntil: now.addingTimeInterval(Self.lease), limit: room)
            } catch {
                logger.warning("could not claim delivery jobs", metadata: ["error": "\(error)"])
                return attempted
            }
            guard !jobs.isEmpty else { return attempted }
            inFlight.add(jobs.count, ordering: .relaxed)
            await withTaskGroup(of: Void.self) { group in
                for job in jobs { group.addTask { await self.attempt(job) } }
            }
            inFlight.subtract(jobs.count, ordering: .relaxed)
            attempted += jobs.count
        }
    }

    /// Returns once no attempt of this node is running (tests, shutdown).
    func waitUntilIdle() async {
        while inFlight.load(ordering: .relaxed) > 0 {
            try? await Task.sleep(for: .milliseconds(5))
        }
    }

    /// Drops jobs whose request expired undelivered, telling their handlers; in batches of
    /// ``HousekeepingService/batchSize`` with a ``HousekeepingService/batchPause`` between full ones.
    func purgeExpired() async {
        do {
            let now = clock.now()
            while true {
                let jobs = try await store.purgeDeliveryJobs(expiredBefore: now, limit: HousekeepingService.batchSize)
                for job in jobs {
                    await handler(for: job.kind)?.abandon(job, reason: "expired before it could be delivered")
                }
                guard jobs.count == HousekeepingService.batchSize else { return }
                try await Task.sleep(for: HousekeepingService.batchPause)
            }
        } catch {
            logger.warning("could not purge delivery jobs", metadata: ["error": "\(error)"])
        }
    }

    public func run() async throws {
        let ticker = Task { [wake] in
            while !Task.isCancelled {
                try? await Task.sleep(for: Self.sweepInterval)
                wake.yield()
            }
        }
        defer { ticker.cancel() }
        await cancelWhenGracefulShutdown {
            for await _ in self.wakeups {
                if Task.isCancelled { break }
                await self.runDue()
            }
        }
    }

    private func handler(for kind: DeliveryJob.Kind) -> (any DeliveryHandler)? {
        handlers.withLock { $0[kind] }
    }

    /// One attempt: success deletes the job; a failure reschedules it, or abandons it when retrying is
    /// pointless.
    private func attempt(_ job: DeliveryJob) async {
        guard let handler = handler(for: job.kind) else {
            logger.error("no handler for delivery job", metadata: ["job": "\(job.id)", "kind": "\(job.kind.rawValue)"])
            return
        }
        do {
            try await handler.deliver(job)
            OperationalMetrics.delivery(job.kind, .sent)
            try await store.deleteDeliveryJob(id: job.id)
            return
        } catch let failure as DeliveryFailure {
            await giveUp(job, handler: handler, reason: failure.description)
            return
        } catch {
            await retry(job, handler: handler, error: error)
        }
    }

    private func retry(_ job: DeliveryJob, handler: any DeliveryHandler, error: any Error) async {
        let next = clock.now().addingTimeInterval(Self.backoff(afterAttempt: job.attempts))
        guard job.attempts < Self.maximumAttempts, next < job.expiresAt else {
            await giveUp(job, handler: handler, reason: "\(error)")
            return
        }
        OperationalMetrics.delivery(job.kind, .retried)
        logger.warning(
            "delivery failed; will retry",
            metadata: [
                "job": "\(job.id)", "kind": "\(job.kind.rawValue)", "attempt": "\(job.attempts)",
                "retry_at": "\(next)", "error": "\(error)",
            ])
        do {
            try await store.rescheduleDeliveryJob(id: job.id, at: next, error: "\(error)")
        } catch {
            // The claim lapses after the lease and the sweep retries then.
            logger.warning("could not reschedule a delivery job", metadata: ["job": "\(job.id)", "error": "\(error)"])
        }
    }

    private func giveUp(_ job: DeliveryJob, handler: any DeliveryHandler, reason: String) async {
        OperationalMetrics.delivery(job.kind, .failed)
        logger.error(
            "delivery abandoned",
            metadata: [
                "job": "\(job.id)", "kind": "\(job.kind.rawValue)", "attempts": "\(job.attempts)",
                "reason": "\(reason)",
            ])
        try? await store.deleteDeliveryJob(id: job.id)
        await handler.abandon(job, reason: reason)
    }

    /// The wait after attempt `n` (1-based): 2^n seconds, at most ``maximumBackoff``.
    static func backoff(afterAttempt attempt: Int) -> Double {
        min(maximumBackoff, pow(2, Double(max(1, min(attempt, 16)))))
    }
}
