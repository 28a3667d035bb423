import Logging
import NIOPosix
import SQLiteKit

/// Copies a SQLite file's write-ahead log into the database from a connection and a thread of its own, every
/// ``interval``, so that the writer never does it inside a commit (SQLite §wal "Checkpointing").
///
/// With SQLite's automatic checkpoint, the commit that takes the log past its threshold first copies the whole
/// log into the file, and every statement queued behind the writer waits for it: while 5,000,000 events were
/// purged, `/readyz` waited up to 155 ms at p99 (issue 16). The writer sets `wal_autocheckpoint = 0`; this
/// connection runs `PRAGMA wal_checkpoint(PASSIVE)`, which waits for nobody: it copies the frames that no reader
/// still needs and leaves the rest for the next round. Closing the last connection still checkpoints the whole
/// log, as SQLite always does.
final class SQLiteCheckpointer: Sendable {
    /// How often the log is copied: a second of writes is a short copy.
    static let interval = Duration.seconds(1)

    private let connection: SQLiteConnection
    private let threadPool: NIOThreadPool
    private let task: Task<Void, Never>

    private init(connection: SQLiteConnection, threadPool: NIOThreadPool, logger: Logger) {
        self.connection = connection
        self.threadPool = threadPool
        let database = connection.sql(queryLogLevel: nil)
        self.task = Task {
            while !Task.isCancelled {
                do {
                    try await Task.sleep(for: Self.interval)
                    try await database.raw("PRAGMA wal_checkpoint(PASSIVE)").run()
                } catch is CancellationError {
                    return
                } catch {
                    // The next round tries again; SQLite's own checkpoint on close is the backstop.
                    logger.debug("WAL checkpoint failed", metadata: ["error": "\(error)"])
                }
            }
        }
    }

    /// Starts checkpointing the file at `path`, which the writer has already switched to WAL.
    static func start(path: String, logger: Logger) async throws -> SQLiteCheckpointer {
        let threadPool = NIOThreadPool(numberOfThreads: 1)
        threadPool.start()
        do {
            let connection = try await SQLiteConnection.open(
                storage: .file(path: path), threadPool: threadPool, logger: logger,
                on: MultiThreadedEventLoopGroup.singleton.any())
            do {
                try await connection.sql(queryLogLevel: nil).raw("PRAGMA busy_timeout = 30000").run()
            } catch {
                try? await connection.close()
                throw error
            }
            return SQLiteCheckpointer(connection: connection, threadPool: threadPool, logger: logger)
        } catch {
            try? await threadPool.shutdownGracefully()
            throw error
        }
    }

    /// Stops the rounds and closes the connection.
    func shutdown() async throws {
        task.cancel()
        await task.value
        try await connection.close()
        try await threadPool.shutdownGracefully()
    }
}
