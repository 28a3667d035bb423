import SQLKit

/// One step of the schema: a version number and its statements, written once with the few type names that
/// differ between the engines taken from ``DDL``.
struct Migration: Sendable {
    let version: Int
    let name: String
    let statements: @Sendable (DDL) -> [SQLQueryString]
}

/// The DDL vocabulary that differs between SQLite and PostgreSQL.
struct DDL: Sendable {
    let engine: SQLEngineKind

    /// SQLite has no boolean type: `INTEGER` 0/1.
    var boolean: any SQLExpression {
        SQLRaw(engine == .sqlite ? "INTEGER" : "BOOLEAN")
    }

    /// A 64-bit auto-incrementing primary key column type.
    var serialPrimaryKey: any SQLExpression {
        SQLRaw(engine == .sqlite ? "INTEGER PRIMARY KEY AUTOINCREMENT" : "BIGSERIAL PRIMARY KEY")
    }
}
