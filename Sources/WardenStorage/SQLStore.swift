public import Logging
import SQLKit
import SQLiteKit
import Synchronization
public import WardenCore

/// Warden's storage on SQL: one implementation of ``WardenStore`` for two engines, SQLite (embedded, the
/// default) and PostgreSQL (several nodes sharing one cluster), over SQLKit.
///
/// Open one with ``connect(url:logger:maxConnections:)``, call ``migrate()`` before use, and
/// ``shutdown()`` before releasing it (the SQLite and PostgreSQL drivers assert that in debug builds). Each
/// method's contract is on its protocol requirement in `WardenCore`; values are always bound, never spliced
/// into SQL text, and statements are not logged (their values include hashes and payloads).
public final class SQLStore: WardenStore {
    /// The engine behind this store.
    public var engine: SQLEngineKind { backend.engine }

    let backend: any SQLBackend
    let logger: Logger
    /// How many imports run now (``withBulkUserWrites(_:)``).
    let bulkUserWrites = Mutex<Int>(0)
    /// Told the time of every statement, once ``observeStatements(_:)`` set it.
    private let observer = Mutex<(any StatementObserver)?>(nil)

    /// Statements that need no transaction run here.
    var sql: any SQLDatabase { timed(backend.database) }
    /// Reads that need no transaction run here: searches, listings and lookups (see ``SQLBackend/reader``).
    var reads: any SQLDatabase { timed(backend.reader) }

    /// From now on, every statement's time goes to `observer` (the server's `warden_db_query_seconds`).
    public func observeStatements(_ observer: any StatementObserver) {
        self.observer.withLock { $0 = observer }
    }

    /// `database`, timed when an observer is set.
    func timed(_ database: any SQLDatabase) -> any SQLDatabase {
        guard let observer = observer.withLock({ $0 }) else { return database }
        return TimedSQLDatabase(base: database, observer: observer)
    }

    init(backend: any SQLBackend, logger: Logger) {
        self.backend = backend
        self.logger = logger
    }

    /// Opens a store.
    ///
    /// - Parameters:
    ///   - url: `sqlite:PATH` (a file, created when missing), `sqlite::memory:` (one in-memory database that
    ///     lives as long as the store), or `postgres://user:password@host:port/database` (also
    ///     `postgresql://`; query options `tlsmode=disable|prefer|require` and `search_path=schema`).
    ///   - logger: Receives connection events (statements are not logged).
    ///   - maxConnections: PostgreSQL only: about how many pooled connections this node may open.
    /// - Throws: ``DatabaseURLError`` for a URL it cannot use, ``DatabaseUnreachableError`` when the database
    ///   cannot be opened or does not answer.
    public static func connect(url: String, logger: Logger, maxConnections: Int = 16) async throws -> SQLStore {
        let location = try DatabaseURL(url)
        let backend: any SQLBackend
        do {
            switch location {
            case .sqliteMemory:
                backend = try await SQLiteBackend.open(.memory, logger: logger)
            case .sqliteFile(let path):
                backend = try await SQLiteBackend.open(.file(path: path), logger: logger)
            case .postgres(let configuration):
                backend = PostgresBackend(configuration: configuration, maxConnections: maxConnections, logger: logger)
            }
        } catch {
            throw DatabaseUnreachableError(url: url, underlying: error)
        }
        let store = SQLStore(backend: backend, logger: logger)
        do {
            try await store.sql.raw("SELECT 1").run()
        } catch {
            try? await backend.shutdown()
            throw DatabaseUnreachableError(url: url, underlying: error)
        }
        (backend as? PostgresBackend)?.logGate.open()
        return store
    }

    /// Runs `SELECT 1` (for `/readyz`); on PostgreSQL, on a new connection of its own too (a server that takes no
    /// new connection is not ready, whatever its pooled ones still answer).
    public func ping() async throws {
        try await sql.raw("SELECT 1").run()
        try await (backend as? PostgresBackend)?.probe()
    }

    /// Closes the connection (SQLite) or the pool (PostgreSQL). The store cannot be used afterwards.
    public func shutdown() async throws {
        try await backend.shutdown()
    }
}
