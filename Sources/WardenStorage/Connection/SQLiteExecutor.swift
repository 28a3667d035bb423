import NIOPosix
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The SQLite writer's own thread, as a Swift task executor (SE-0417).
///
/// SQLite calls block, so they run on a thread of their own, not on the concurrency pool. Before, each statement
/// was one trip there and back: a wake-up of the SQLite thread, then one of a pool thread, about ten of each for a
/// CIBA request (issue 16 item 7). A task that prefers this executor (``SQLiteWriter/withSession(_:)``) runs here
/// whole, so a transaction's statements run one after the other on this thread with no trip between them.
final class SQLiteExecutor: TaskExecutor, Sendable {
    private let threadPool: NIOThreadPool
    /// The thread, once it ran something.
    private let thread = Mutex<pthread_t?>(nil)

    /// Starts the thread.
    init() {
        threadPool = NIOThreadPool(numberOfThreads: 1)
        threadPool.start()
        threadPool.submit { _ in self.thread.withLock { $0 = pthread_self() } }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        threadPool.submit { _ in job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }

    /// Whether the caller runs on this executor's thread.
    var isCurrent: Bool { thread.withLock { $0 }.map { pthread_equal(pthread_self(), $0) != 0 } ?? false }

    /// Stops the thread once the jobs it has are done; nothing may be enqueued afterwards.
    func shutdown() async throws {
        try await threadPool.shutdownGracefully()
    }
}
