import Logging
import NIOCore
import SQLKit
import Synchronization
import WardenCore

/// PostgreSQL's statements within a request's wait for the database (``Deadline/databaseLimit``, SPEC §11): a
/// frozen server — accepting connections, answering nothing — makes the statement throw ``Deadline/Exceeded`` at
/// the limit (an outage: 503 with `Retry-After`) instead of holding the request. Outside a request (migrations,
/// background jobs) there is no limit. A statement given up keeps running until the server answers: like any
/// answer lost on the way, a write may still happen after its request was told 503.
struct BoundedSQLDatabase: ForwardingSQLDatabase {
    let base: any SQLDatabase

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void)
        -> EventLoopFuture<Void>
    {
        base.execute(sql: query, onRow)
    }

    /// The statement raced against a timer on the event loop: no task is made per statement (this is every
    /// PostgreSQL statement of a request), and whichever ends first completes the wait.
    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) async throws {
        guard let limit = Deadline.databaseLimit else { return try await base.execute(sql: query, onRow) }
        let loop = eventLoop
        let promise = loop.makePromise(of: Void.self)
        let first = FirstCompletion()
        let (seconds, attoseconds) = limit.components
        let timer = loop.scheduleTask(in: .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)) {
            if first.claim() { promise.fail(Deadline.Exceeded(limit: limit)) }
        }
        base.execute(sql: query, onRow).whenComplete { result in
            timer.cancel()
            if first.claim() { promise.completeWith(result) }
        }
        try await promise.futureResult.get()
    }

    func withSession<R>(_ closure: @escaping @Sendable (any SQLDatabase) async throws -> R) async throws -> R {
        try await base.withSession(closure)
    }
}

/// Which of a statement and its timer ended first: the one whose ``claim()`` returns `true`.
private final class FirstCompletion: Sendable {
    private let claimed = Atomic(false)

    func claim() -> Bool {
        claimed.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
    }
}
