import Logging
import NIOCore
import NIOPosix
import SQLKit
import SQLiteKit
import SQLiteNIO

/// The SQLite writer as an `SQLDatabase`: SQLKit's statements, run by ``SQLiteWriterConnection`` on
/// ``SQLiteExecutor``'s thread.
///
/// A statement on its own is one trip to that thread and back. A session (``withSession(_:)``) runs its whole
/// body there, so a transaction of ten statements is still one trip. The caller serializes: ``SQLiteBackend``
/// wraps this in a ``SerializedSQLDatabase``.
struct SQLiteWriter: SQLiteStatementRunner {
    let connection: SQLiteWriterConnection
    let executor: SQLiteExecutor
    let logger: Logger
    let eventLoop: any EventLoop
    private let encoder = SQLiteDataEncoder()

    init(connection: SQLiteWriterConnection, executor: SQLiteExecutor, logger: Logger, eventLoop: any EventLoop) {
        self.connection = connection
        self.executor = executor
        self.logger = logger
        self.eventLoop = eventLoop
    }

    /// Starts a thread and opens `path` (`:memory:` for an in-memory database) on it.
    static func open(path: String, logger: Logger) async throws -> SQLiteWriter {
        let executor = SQLiteExecutor()
        do {
            let connection = try await withTaskExecutorPreference(executor) { try SQLiteWriterConnection(path: path) }
            return SQLiteWriter(
                connection: connection, executor: executor, logger: logger,
                eventLoop: MultiThreadedEventLoopGroup.singleton.any())
        } catch {
            try? await executor.shutdown()
            throw error
        }
    }

    /// Closes the connection on its thread, then stops the thread; the writer cannot be used afterwards.
    func close() async {
        await withTaskExecutorPreference(executor) { connection.close() }
        try? await executor.shutdown()
    }

    /// Unknown to SQLKit; `SQLiteDialect` reads the library's version itself.
    var version: (any SQLDatabaseReportedVersion)? { nil }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) async throws {
        let (sql, binds) = serialize(query)
        let values = try binds.map { try encoder.encode($0) }
        try await withTaskExecutorPreference(executor) {
            assert(executor.isCurrent, "a statement outside the writer's thread")
            return try connection.run(sql, values) { onRow($0) }
        }
    }

    /// Runs `closure` on the writer's thread: its statements run there with no trip between them. A task that
    /// `closure` starts (`Task {}`, a child task) would inherit that preference (SE-0417) and run there too, so
    /// the store's transactions start none.
    func withSession<R>(_ closure: @escaping @Sendable (any SQLDatabase) async throws -> R) async throws -> R {
        try await withTaskExecutorPreference(executor) { try await closure(self) }
    }
}

/// One row that ``SQLiteWriterConnection`` read, decoded by SQLiteKit's rules (`SQLiteDataDecoder`).
struct SQLiteWriterRow: SQLRow {
    /// The column names of a statement's rows, shared by them.
    final class Columns: Sendable {
        let names: [String]
        /// Each name's first position.
        let positions: [String: Int]

        init(names: [String]) {
            self.names = names
            var positions: [String: Int] = [:]
            for (index, name) in names.enumerated() where positions[name] == nil { positions[name] = index }
            self.positions = positions
        }
    }

    /// A column that the row does not have.
    struct MissingColumn: Error, CustomStringConvertible {
        let column: String
        var description: String { "no column \(column) in the row" }
    }

    let columns: Columns
    let values: [SQLiteData]

    var allColumns: [String] { columns.names }

    func contains(column: String) -> Bool { columns.positions[column] != nil }

    func decodeNil(column: String) throws -> Bool {
        guard let index = columns.positions[column] else { return true }
        return values[index] == .null
    }

    func decode<D: Decodable>(column: String, as type: D.Type) throws -> D {
        guard let index = columns.positions[column] else { throw MissingColumn(column: column) }
        return try Self.decoder.decode(D.self, from: values[index])
    }

    private static let decoder = SQLiteDataDecoder()
}
