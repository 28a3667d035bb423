/// Told how long each database statement took, by kind and table (issue 16: "database query latency by
/// operation"): the server turns it into the `warden_db_query_seconds` histogram.
public protocol StatementObserver: Sendable {
    /// One statement: `statement` is `select`, `insert`, `update`, `delete` or `sql` (written as text), `table` the
    /// first table it names (`""` for text).
    func statement(_ statement: String, table: String, took duration: Duration)
}
