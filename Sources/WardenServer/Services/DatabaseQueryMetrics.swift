import Metrics
import Synchronization
public import WardenCore

/// `warden_db_query_seconds{statement, table}` (issue 16 item 6): the time of every database statement, by kind
/// (`select`, `insert`, `update`, `delete`, or `sql` for text statements: transactions' `BEGIN`/`COMMIT`, the few
/// hand-written queries) and first table. One timer per pair, made once.
public final class DatabaseQueryMetrics: StatementObserver {
    private let timers = Mutex<[String: Metrics.Timer]>([:])

    public init() {
        WardenMetrics.bootstrap()
    }

    public func statement(_ statement: String, table: String, took duration: Duration) {
        let key = statement + " " + table
        let timer = timers.withLock { timers in
            if let timer = timers[key] { return timer }
            let timer = Metrics.Timer(
                label: "warden_db_query_seconds", dimensions: [("statement", statement), ("table", table)])
            timers[key] = timer
            return timer
        }
        timer.record(duration: duration)
    }
}
