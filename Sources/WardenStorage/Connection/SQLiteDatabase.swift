import Logging
import NIOCore
import SQLKit
import SQLiteKit

/// A SQLite `SQLDatabase` of this module (``SQLiteWriter``, ``SQLiteReaders``): SQLite's dialect, no query log,
/// and statements that run in `async` code, which SQLKit's future-returning entry point wraps.
protocol SQLiteStatementRunner: SQLDatabase {}

extension SQLiteStatementRunner {
    var dialect: any SQLDialect { SQLiteDialect() }
    var queryLogLevel: Logger.Level? { nil }

    func execute(
        sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void
    ) -> EventLoopFuture<Void> {
        eventLoop.makeFutureWithTask { try await self.execute(sql: query, onRow) }
    }
}
