import Logging
import NIOCore
import SQLKit
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

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) async throws {
        guard let limit = Deadline.databaseLimit else { return try await base.execute(sql: query, onRow) }
        let base = base
        try await Deadline.run(within: limit) { try await base.execute(sql: query, onRow) }
    }

    func withSession<R>(_ closure: @escaping @Sendable (any SQLDatabase) async throws -> R) async throws -> R {
        try await base.withSession(closure)
    }
}
