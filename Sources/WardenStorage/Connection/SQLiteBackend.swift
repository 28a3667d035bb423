import Logging
import NIOPosix
import SQLiteKit

/// SQLite through one writing connection: SQLite serializes writers anyway, and one connection makes
/// `sqlite::memory:` a single database for the whole process. Every statement on it goes through an
/// ``AsyncSerialLock``, so a transaction (a session) has the connection to itself. A file also gets
/// ``readerCount`` read-only connections (``SQLiteReaders``) for the reads the store sends to ``reader``, and one
/// that checkpoints its log (``SQLiteCheckpointer``).
struct SQLiteBackend: SQLBackend {
    /// The connection that writes, and its thread.
    private let writer: SQLiteWriter
    /// The read-only connections of a file; `nil` for `sqlite::memory:`, whose reads go to the writer.
    private let readers: SQLiteReaders?
    /// What copies a file's log into it, off the writer; `nil` for `sqlite::memory:`.
    private let checkpointer: SQLiteCheckpointer?
    let database: any SQLDatabase
    private let lock: AsyncSerialLock
    /// A file (other processes may share it), not `sqlite::memory:`.
    let isFile: Bool

    var engine: SQLEngineKind { .sqlite }
    var reader: any SQLDatabase { readers ?? database }

    /// How many read-only connections a file gets: a few slow searches at once still leave one for lookups.
    static let readerCount = 3

    /// Opens the database and applies the connection settings (WAL and a busy timeout for files).
    ///
    /// The writer runs on a thread of its own (``SQLiteExecutor``): SQLite calls block (a busy wait can last
    /// seconds), so they must not share a thread pool with other blocking work — two stores waiting on each
    /// other's locks there could occupy every thread and deadlock until the busy timeout.
    static func open(_ storage: SQLiteConnection.Storage, logger: Logger) async throws -> SQLiteBackend {
        let path: String
        switch storage {
        case .memory: path = ":memory:"
        case .file(let file): path = file
        }
        let writer = try await SQLiteWriter.open(path: path, logger: logger)
        do {
            if case .file = storage { try await switchToWAL(writer) }
            for pragma in pragmas(for: storage) {
                try await writer.raw(pragma).run()
            }
        } catch {
            await writer.close()
            throw error
        }
        var readers: SQLiteReaders?
        var checkpointer: SQLiteCheckpointer?
        if case .file(let path) = storage {
            do {
                readers = try await SQLiteReaders.open(path: path, count: readerCount, logger: logger)
                checkpointer = try await SQLiteCheckpointer.start(path: path, logger: logger)
            } catch {
                try? await readers?.shutdown()
                await writer.close()
                throw error
            }
        }
        let lock = AsyncSerialLock()
        return SQLiteBackend(
            writer: writer, readers: readers, checkpointer: checkpointer,
            database: SerializedSQLDatabase(base: writer, lock: lock), lock: lock, isFile: readers != nil)
    }

    /// Switches a file to WAL. The switch needs an exclusive lock; while it waits it keeps a shared one, and a
    /// process committing in rollback mode at that moment waits for the shared lock to go: a deadlock that a
    /// long busy timeout would only turn into a long wait and an error. So it waits briefly and retries, letting
    /// the other process commit in between (for up to 30 s).
    private static func switchToWAL(_ database: any SQLDatabase) async throws {
        try await database.raw("PRAGMA busy_timeout = 100").run()
        var attempt = 0
        while true {
            do {
                try await database.raw("PRAGMA journal_mode = WAL").run()
                return
            } catch {
                attempt += 1
                guard attempt < 150, String(describing: error).contains("locked") else { throw error }
                try await Task.sleep(for: .milliseconds(100))
            }
        }
    }

    private static func pragmas(for storage: SQLiteConnection.Storage) -> [SQLQueryString] {
        guard case .file = storage else { return ["PRAGMA foreign_keys = ON"] }
        return [
            "PRAGMA busy_timeout = 30000", "PRAGMA synchronous = NORMAL", "PRAGMA foreign_keys = ON",
        ] + pageAccess
    }

    /// The writer's checkpoints (issue 16): it never checkpoints itself, ``SQLiteCheckpointer`` does, beside it;
    /// a log that grew past 64 MB is cut back to that once copied. Memory-mapping the file made an import 7 %
    /// faster and the RSS of a big tenant look like the whole file, so it is not used. The page cache is SQLite's
    /// default but while an import runs (``SQLStore/withBulkUserWrites(_:)``).
    static let pageAccess: [SQLQueryString] = [
        "PRAGMA wal_autocheckpoint = 0", "PRAGMA journal_size_limit = 67108864",
    ]

    func withSession<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try await database.withSession(body)
    }

    /// How often ``listen`` asks whether another process wrote to the file.
    static let externalChangeCheckInterval = Duration.seconds(1)

    /// SQLite has no notification channel, but `PRAGMA data_version` (SQLite §pragma_data_version) changes when
    /// another connection — another process on the same file — commits. Once a second this compares it and,
    /// when it changed, calls `reconnected` ("anything may have changed"); a file used by this process alone
    /// never triggers it. An in-memory database is this process's alone: it only waits.
    func listen(
        channel: String, reconnected: @escaping @Sendable () async -> Void,
        _ handler: @escaping @Sendable (String) async -> Void
    ) async throws {
        var known: Int?
        while !Task.isCancelled {
            try await Task.sleep(for: Self.externalChangeCheckInterval)
            guard isFile else { continue }
            let version = try await database.raw("PRAGMA data_version").first()?.decode(
                column: "data_version", as: Int.self)
            if let known, version != known { await reconnected() }
            known = version
        }
    }

    func shutdown() async throws {
        try await checkpointer?.shutdown()
        try await readers?.shutdown()
        await lock.withLock { await writer.close() }
    }
}
