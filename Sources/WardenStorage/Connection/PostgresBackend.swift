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
    let database: any SQLDatabase

    var engine: SQLEngineKind { .postgres }

    /// A pool of at most about `maxConnections` connections (at least one per event loop).
    init(configuration: SQLPostgresConfiguration, maxConnections: Int, logger: Logger) {
        let group = MultiThreadedEventLoopGroup.singleton
        let loops = Array(group.makeIterator()).count
        pool = EventLoopGroupConnectionPool(
            source: PostgresConnectionSource(sqlConfiguration: configuration),
            maxConnectionsPerEventLoop: max(1, maxConnections / max(1, loops)),
            logger: logger,
            on: group)
        self.logger = logger
        database = pool.database(logger: logger).sql(queryLogLevel: nil)
    }

    func withSession<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try await pool.withConnection(logger: logger) { connection in
            connection.eventLoop.makeFutureWithTask { try await body(connection.sql(queryLogLevel: nil)) }
        }.get()
    }

    func shutdown() async throws {
        try await pool.shutdownAsync()
    }
}
