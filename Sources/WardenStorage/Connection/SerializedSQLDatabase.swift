import Logging
import NIOCore
import SQLKit

/// An `SQLDatabase` over one SQLite connection that runs one statement, or one session, at a time.
///
/// A session (``withSession(_:)``) holds the lock for its whole duration and is the connection's own session,
/// so a transaction's statements are never interleaved with statements of other tasks.
struct SerializedSQLDatabase: ForwardingSQLDatabase {
    let base: any SQLDatabase
    let lock: AsyncSerialLock

    func execute(
        sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void
    ) -> EventLoopFuture<Void> {
        eventLoop.makeFutureWithTask { try await self.execute(sql: query, onRow) }
    }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) async throws {
        try await lock.withLock { try await base.execute(sql: query, onRow) }
    }

    func withSession<R>(_ closure: @escaping @Sendable (any SQLDatabase) async throws -> R) async throws -> R {
        try await lock.withLock { try await base.withSession(closure) }
    }
}
