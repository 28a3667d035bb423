/// What a node caches that another node may change (ARCHITECTURE: caches are refreshed on change).
public enum CacheChange: String, Sendable, CaseIterable {
    /// Signing keys (rotation, revocation, a new algorithm).
    case keys
    /// Clients, APIs and client grants.
    case tenant
}

/// The cross-node notification channel: PostgreSQL `LISTEN`/`NOTIFY`; on SQLite, where nodes share a file
/// on one host, announcements go nowhere and each node's periodic refresh (≤ 60 s) does the work.
public protocol ChangeChannel: Sendable {
    /// Tells every node (this one included) that `change` happened. Never throws: a lost announcement is
    /// covered by the periodic refresh.
    func announce(_ change: CacheChange) async
    /// Calls `handler` for each announcement until the task is cancelled; `handler` also receives every
    /// ``CacheChange`` after a reconnection, since announcements may have been missed meanwhile.
    func listen(_ handler: @escaping @Sendable (CacheChange) async -> Void) async throws
}
