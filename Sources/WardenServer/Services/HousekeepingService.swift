import Foundation
import Logging
import ServiceLifecycle
import WardenCore

/// Deletes what has outlived its use: expired single-use artefacts, ended sessions, CIBA requests a day
/// after their expiry (until then a poll still gets `expired_token`, SPEC §6.2), undeliverable jobs, and this
/// node's memory of expired requests. Every node runs it; the deletes are idempotent.
struct HousekeepingService: Service {
    let runtime: WardenRuntime
    static let interval = Duration.seconds(60)
    /// How long an expired CIBA request is kept so that polls are told it expired.
    static let backchannelRetention: Double = 86400

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
            try await runtime.store.purgeArtefacts(expiredBefore: now)
            try await runtime.store.purgeSessions(expiredBefore: now)
            _ = try await runtime.store.purgeBackchannelRequests(
                expiredBefore: now.addingTimeInterval(-Self.backchannelRetention))
        } catch {
            runtime.logger.warning("housekeeping failed", metadata: ["error": "\(error)"])
        }
    }
}
