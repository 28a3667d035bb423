import SQLKit

/// One engine's connections, as ``SQLStore`` uses them.
protocol SQLBackend: Sendable {
    var engine: SQLEngineKind { get }
    /// Runs single statements, each on whichever connection is free.
    var database: any SQLDatabase { get }
    /// Runs single statements that only read: on a SQLite file one of the read-only connections beside the
    /// writer, so that a slow read never queues a write behind it; elsewhere ``database``. A read here sees
    /// every write committed before it started.
    var reader: any SQLDatabase { get }
    /// Runs `body` on one connection that no other task uses meanwhile: for transactions.
    func withSession<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T
    /// Receives the payloads sent on `channel` by any node until the task is cancelled (PostgreSQL
    /// `LISTEN`); `reconnected` runs after each (re)connection, when notifications may have been missed.
    func listen(
        channel: String, reconnected: @escaping @Sendable () async -> Void,
        _ handler: @escaping @Sendable (String) async -> Void
    ) async throws
    /// Closes the connections; the backend cannot be used afterwards.
    func shutdown() async throws
}
