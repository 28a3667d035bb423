/// The SQL engines Warden stores its data in: SQLite embedded by default, PostgreSQL to scale out.
public enum SQLEngineKind: Sendable, Hashable {
    /// SQLite through SQLiteKit, booleans as `INTEGER` 0/1.
    case sqlite
    /// PostgreSQL through PostgresKit.
    case postgres
}
