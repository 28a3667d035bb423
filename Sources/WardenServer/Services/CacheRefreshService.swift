import Logging
import ServiceLifecycle
import WardenCore

/// Keeps this node's caches (clients, APIs, grants, keys, the CIBA requests it knows to be pending) in step
/// with the database: at once when another node announces a change (PostgreSQL `LISTEN`) or, on a SQLite
/// file, within a second of another process's commit (`PRAGMA data_version`), and in any case every cache TTL
/// (SPEC §2: 60 s). Announced device transactions, and any reconnection, send this node's device streams what
/// they have not sent yet (SPEC §7.5).
struct CacheRefreshService: Service {
    let runtime: WardenRuntime

    func run() async throws {
        await cancelWhenGracefulShutdown {
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await refreshPeriodically() }
                group.addTask { await followAnnouncements() }
            }
        }
    }

    private func refreshPeriodically() async {
        let interval = Duration.milliseconds(Int(runtime.configuration.cacheTTL * 1000))
        while !Task.isCancelled {
            do {
                try await Task.sleep(for: interval)
            } catch {
                return
            }
            // Keys and tenant only: CIBA decisions are always announced (or seen as another process's commit).
            await handle(.keys)
            await handle(.tenant)
        }
    }

    private func followAnnouncements() async {
        do {
            try await runtime.store.listen { announcement in await handle(announcement) }
        } catch {
            if !Task.isCancelled {
                runtime.logger.warning("change channel stopped", metadata: ["error": "\(error)"])
            }
        }
    }

    /// Brings this node up to date with one announcement.
    func handle(_ announcement: ChangeAnnouncement) async {
        do {
            switch announcement {
            case .keys: try await runtime.keys.refresh()
            case .tenant: try await runtime.cache.reload()
            case .backchannelDecided(let id):
                runtime.backchannelPolls.markUnverified(id)
            case .deviceTransactions(let id):
                runtime.deviceStreams.refresh(enrollmentID: id)
            case .reconnected:
                // Anything may have changed while nobody was listening.
                runtime.backchannelPolls.markAllUnverified()
                runtime.deviceStreams.refreshAll()
                try await runtime.keys.refresh()
                try await runtime.cache.reload()
            }
        } catch {
            runtime.logger.warning(
                "cache refresh failed", metadata: ["change": "\(announcement.payload)", "error": "\(error)"])
        }
    }
}
