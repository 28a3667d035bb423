import Logging
import NIOCore
import NIOPosix
import SQLiteKit
import Synchronization

/// Read-only connections to a SQLite file in WAL mode, beside the one writer (``SQLiteBackend``): a slow read —
/// a user search, a log listing — runs on one of them and never holds up the writer's queue, where token
/// requests and log writes wait (issue 16 item 2).
///
/// In WAL mode a reader does not block the writer nor the writer a reader (SQLite §wal "readers do not block
/// writers and a writer does not block readers"), and each statement outside a transaction reads the last commit:
/// a read that follows a committed write sees it. Each connection refuses writes (`PRAGMA query_only`). A
/// statement takes whichever connection is free, or waits for the first one freed, in arrival order.
final class SQLiteReaders: SQLiteStatementRunner, Sendable {
    private struct State {
        var idle: [SQLiteConnection]
        var waiters = CircularBuffer<CheckedContinuation<SQLiteConnection, Never>>()
    }

    private let connections: [SQLiteConnection]
    private let state: Mutex<State>
    /// The readers' own threads, one per connection (see ``SQLiteBackend``'s thread pool).
    private let threadPool: NIOThreadPool
    let logger: Logger

    private init(connections: [SQLiteConnection], threadPool: NIOThreadPool, logger: Logger) {
        self.connections = connections
        self.state = Mutex(State(idle: connections))
        self.threadPool = threadPool
        self.logger = logger
    }

    /// Opens `count` read-only connections to the file at `path`, which the writer has already switched to WAL.
    static func open(path: String, count: Int, logger: Logger) async throws -> SQLiteReaders {
        let threadPool = NIOThreadPool(numberOfThreads: count)
        threadPool.start()
        var connections: [SQLiteConnection] = []
        do {
            for _ in 0..<count {
                let connection = try await SQLiteConnection.open(
                    storage: .file(path: path), threadPool: threadPool, logger: logger,
                    on: MultiThreadedEventLoopGroup.singleton.any())
                connections.append(connection)
                for pragma: SQLQueryString in ["PRAGMA busy_timeout = 30000", "PRAGMA query_only = ON"] {
                    try await connection.sql(queryLogLevel: nil).raw(pragma).run()
                }
            }
        } catch {
            for connection in connections { try? await connection.close() }
            try? await threadPool.shutdownGracefully()
            throw error
        }
        return SQLiteReaders(connections: connections, threadPool: threadPool, logger: logger)
    }

    var eventLoop: any EventLoop { connections[0].eventLoop }
    var version: (any SQLDatabaseReportedVersion)? { connections[0].sql(queryLogLevel: nil).version }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) async throws {
        try await withSession { try await $0.execute(sql: query, onRow) }
    }

    /// Runs `closure` on one reader that no other task uses meanwhile (a read transaction, in tests).
    func withSession<R>(_ closure: @escaping @Sendable (any SQLDatabase) async throws -> R) async throws -> R {
        let connection = await checkOut()
        defer { checkIn(connection) }
        return try await closure(connection.sql(queryLogLevel: nil))
    }

    /// Closes every connection once it is idle; the readers cannot be used afterwards.
    func shutdown() async throws {
        for _ in connections {
            try await checkOut().close()
        }
        try await threadPool.shutdownGracefully()
    }

    private func checkOut() async -> SQLiteConnection {
        if let connection = state.withLock({ $0.idle.popLast() }) { return connection }
        return await withCheckedContinuation { continuation in
            let connection = state.withLock { state -> SQLiteConnection? in
                guard let connection = state.idle.popLast() else {
                    state.waiters.append(continuation)
                    return nil
                }
                return connection
            }
            if let connection { continuation.resume(returning: connection) }
        }
    }

    /// Hands the connection to the oldest waiter, or puts it back.
    private func checkIn(_ connection: SQLiteConnection) {
        let waiter = state.withLock { state -> CheckedContinuation<SQLiteConnection, Never>? in
            guard let waiter = state.waiters.popFirst() else {
                state.idle.append(connection)
                return nil
            }
            return waiter
        }
        waiter?.resume(returning: connection)
    }
}
