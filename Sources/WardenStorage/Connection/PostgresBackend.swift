import Logging
import NIOCore
import NIOPosix
import PostgresKit

/// PostgreSQL through a pool of connections spread over the event loops of the shared
/// `MultiThreadedEventLoopGroup`.
///
/// `@unchecked Sendable`: AsyncKit's `EventLoopGroupConnectionPool` is not annotated `Sendable`, but it guards
/// its own state with a lock and hands each connection to one caller at a time; it is built to be shared
/// across threads (PostgresKit's pooled `PostgresDatabase` captures it the same way). The other stored
/// properties are `Sendable`, and none is mutated after `init`.
struct PostgresBackend: SQLBackend, @unchecked Sendable {
    private let pool: EventLoopGroupConnectionPool<PostgresConnectionSource>
    private let logger: Logger
    private let connectionConfiguration: PostgresConnection.Configuration
    let database: any SQLDatabase
    /// Opened once the database first answered (``SQLStore/connect(url:logger:maxConnections:)``): the pool's log
    /// is silent before, so a database down at start is one sentence of Warden's.
    let logGate: LogGate

    var engine: SQLEngineKind { .postgres }
    /// The pool serves reads and writes alike.
    var reader: any SQLDatabase { database }

    /// A pool of at most about `maxConnections` connections (at least one per event loop).
    init(configuration: SQLPostgresConfiguration, maxConnections: Int, logger: Logger) {
        let group = MultiThreadedEventLoopGroup.singleton
        let loops = Array(group.makeIterator()).count
        let gate = LogGate()
        logGate = gate
        let logger = gate.gating(logger)
        pool = EventLoopGroupConnectionPool(
            source: PostgresConnectionSource(sqlConfiguration: configuration),
            maxConnectionsPerEventLoop: max(1, maxConnections / max(1, loops)),
            // A busy node queues for a connection rather than failing fast: 30 s before `connectionRequestTimeout`.
            requestTimeout: .seconds(30),
            logger: logger,
            on: group)
        self.logger = logger
        connectionConfiguration = configuration.coreConfiguration
        database = BoundedSQLDatabase(base: pool.database(logger: logger).sql(queryLogLevel: nil))
    }

    /// Opens a connection of its own, runs `SELECT 1` and closes it (`/readyz`, SPEC §11): a server whose pooled
    /// connections still answer but which takes no new one (its postmaster frozen) is not ready either.
    func probe() async throws {
        let connection = try await PostgresConnection.connect(
            configuration: connectionConfiguration, id: 0, logger: logger)
        defer { Task { try? await connection.close() } }
        _ = try await connection.query("SELECT 1", logger: logger)
    }

    func withSession<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try await pool.withConnection(logger: logger) { connection in
            connection.eventLoop.makeFutureWithTask { try await body(connection.sql(queryLogLevel: nil)) }
        }.get()
    }

    /// A dedicated connection outside the pool holds the `LISTEN`; when it drops, it is reopened after a
    /// second, and `reconnected` lets the caller catch up on what it may have missed.
    func listen(
        channel: String, reconnected: @escaping @Sendable () async -> Void,
        _ handler: @escaping @Sendable (String) async -> Void
    ) async throws {
        var connectionID = 0
        while !Task.isCancelled {
            connectionID += 1
            do {
                let connection = try await PostgresConnection.connect(
                    configuration: connectionConfiguration, id: connectionID, logger: logger)
                defer { Task { try? await connection.close() } }
                try await connection.listen(on: channel) { notifications in
                    await reconnected()
                    for try await notification in notifications {
                        await handler(notification.payload)
                    }
                }
            } catch is CancellationError {
                return
            } catch {
                logger.warning("change channel lost; reconnecting", metadata: ["error": "\(String(reflecting: error))"])
            }
            try await Task.sleep(for: .seconds(1))
        }
    }

    func shutdown() async throws {
        try await pool.shutdownAsync()
    }
}
