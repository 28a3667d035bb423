import Logging
import ServiceLifecycle
import WardenCore

/// Re-reads clients, APIs, grants and keys every cache TTL, so changes made on another node (or by
/// `warden keys rotate`) reach this one within that time (SPEC §2: 60 s).
struct CacheRefreshService: Service {
    let runtime: WardenRuntime

    func run() async throws {
        let interval = Duration.milliseconds(Int(runtime.configuration.cacheTTL * 1000))
        while !Task.isShuttingDownGracefully, !Task.isCancelled {
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) }
            do {
                try await runtime.keys.refresh()
                try await runtime.cache.reload()
            } catch {
                runtime.logger.warning("cache refresh failed", metadata: ["error": "\(error)"])
            }
        }
    }
}
