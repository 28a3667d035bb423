import Logging
import NIOCore
import SQLKit
import WardenCore

/// A database that times each statement for a ``StatementObserver`` and otherwise forwards everything to `base`.
struct TimedSQLDatabase: ForwardingSQLDatabase {
    let base: any SQLDatabase
    let observer: any StatementObserver

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void)
        -> EventLoopFuture<Void>
    {
        let start = ContinuousClock.now
        let (statement, table) = Self.describe(query)
        return base.execute(sql: query, onRow).always { _ in
            observer.statement(statement, table: table, took: ContinuousClock.now - start)
        }
    }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) async throws {
        let start = ContinuousClock.now
        defer {
            let (statement, table) = Self.describe(query)
            observer.statement(statement, table: table, took: ContinuousClock.now - start)
        }
        try await base.execute(sql: query, onRow)
    }

    func withSession<R>(_ closure: @escaping @Sendable (any SQLDatabase) async throws -> R) async throws -> R {
        try await base.withSession { [observer] session in
            try await closure(TimedSQLDatabase(base: session, observer: observer))
        }
    }

    /// The kind of `query` and the first table it names, from SQLKit's expression types; a statement written as
    /// text is `sql`.
    static func describe(_ query: any SQLExpression) -> (statement: String, table: String) {
        switch query {
        case let select as SQLSelect: ("select", name(select.tables.first))
        case let insert as SQLInsert: ("insert", name(insert.table))
        case let update as SQLUpdate: ("update", name(update.table))
        case let delete as SQLDelete: ("delete", name(delete.table))
        default: ("sql", "")
        }
    }

    private static func name(_ expression: (any SQLExpression)?) -> String {
        switch expression {
        case let identifier as SQLIdentifier: identifier.string
        case let qualified as SQLQualifiedTable: name(qualified.table)
        case let alias as SQLAlias: name(alias.expression)
        default: ""
        }
    }
}
