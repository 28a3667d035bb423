import Foundation
public import Logging
public import WardenCore

/// What every route of one node shares: configuration, storage, caches, keys, the event log and the clock.
public final class WardenRuntime: Sendable {
    public let configuration: WardenConfiguration
    public let store: any WardenStore
    public let cache: TenantCache
    public let keys: KeyManager
    public let eventLog: EventLog
    public let clock: any WardenClock
    public let logger: Logger
    /// Parsed `--trusted-proxies`.
    let trustedProxies: [CIDR]

    /// Connects the pieces; keys are loaded (and created on first start).
    public static func make(
        configuration: WardenConfiguration, store: any WardenStore, clock: any WardenClock = SystemClock(),
        logger: Logger
    ) async throws -> WardenRuntime {
        WardenMetrics.bootstrap()
        let keys = try await KeyManager.load(store: store, clock: clock)
        let runtime = WardenRuntime(
            configuration: configuration, store: store, keys: keys, clock: clock, logger: logger)
        try await runtime.cache.reload()
        return runtime
    }

    private init(
        configuration: WardenConfiguration, store: any WardenStore, keys: KeyManager, clock: any WardenClock,
        logger: Logger
    ) {
        self.configuration = configuration
        self.store = store
        self.cache = TenantCache(store: store)
        self.keys = keys
        self.clock = clock
        self.logger = logger
        self.trustedProxies = configuration.trustedProxies.compactMap(CIDR.init)
        self.eventLog = EventLog(
            store: store, retentionDays: configuration.logRetentionDays, clock: clock, logger: logger)
    }

    /// Reloads this node's tenant cache after a local change and tells the other nodes (SPEC §2).
    public func tenantChanged() async throws {
        try await cache.reload()
        await store.announce(.tenant)
    }

    /// `{issuer}` with its trailing slash.
    public var issuer: String { configuration.issuerString }

    /// Seconds since the epoch, as an integer (JWT NumericDate).
    var nowSeconds: Int { Int(clock.now().timeIntervalSince1970) }
}
