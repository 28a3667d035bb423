import Logging
import ServiceLifecycle
import WardenCore

/// Keeps this node's caches (clients, APIs, grants, keys) in step with the database: at once when another
/// node announces a change (PostgreSQL `LISTEN`), and in any case every cache TTL, so changes made through
/// SQLite by another process (`warden keys rotate`) arrive within that time (SPEC §2: 60 s).
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
            for change in CacheChange.allCases { await refresh(change) }
        }
    }

    private func followAnnouncements() async {
        do {
            try await runtime.store.listen { change in await refresh(change) }
        } catch {
            if !Task.isCancelled {
                runtime.logger.warning("change channel stopped", metadata: ["error": "\(error)"])
            }
        }
    }

    private func refresh(_ change: CacheChange) async {
        do {
            switch change {
            case .keys: try await runtime.keys.refresh()
            case .tenant: try await runtime.cache.reload()
            }
        } catch {
            runtime.logger.warning(
                "cache refresh failed", metadata: ["change": "\(change.rawValue)", "error": "\(error)"])
        }
    }
}
