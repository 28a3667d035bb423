import Logging
import SQLKit
import Synchronization
import WardenCore

/// Keys of the PostgreSQL transaction-scoped advisory locks SQLStore takes (`pg_advisory_xact_lock`).
enum AdvisoryLock: Int64 {
    /// Held while migrating, so nodes starting together apply each migration once.
    case migrations = 0x5741_5244_0000_0001
    /// Held while a new current signing key replaces the previous one.
    case signingKeys = 0x5741_5244_0000_0002
}

/// Classes of the PostgreSQL transaction-scoped advisory locks SQLStore takes on one key
/// (`pg_advisory_xact_lock(class, hashtext(key))`, a key space apart from ``AdvisoryLock``'s; a hash collision only
/// serializes two keys).
enum KeyedAdvisoryLock: Int32 {
    /// A refresh-token family: inserting a token into it, revoking it.
    case refreshTokenFamily = 0x5752
    /// One user's (or unknown address's) password-login attempts.
    case loginThrottle = 0x574C
    /// One user's one-time-code attempts (SPEC §12).
    case otpThrottle = 0x574F
    /// One user's WebAuthn credentials: counting them, adding one (SPEC §17's limit per user).
    case webAuthnCredentials = 0x5757
}

/// Building blocks shared by the stores: transactions, pages, predicates.
extension SQLStore {
    /// Inside a ``transaction(lock:_:)``, on PostgreSQL, waits for the `kind` lock of `key` until the transaction
    /// ends, so that two transactions on one key never run side by side under READ COMMITTED. SQLite needs none:
    /// `BEGIN IMMEDIATE` already serializes every writing transaction.
    static func lock(_ kind: KeyedAdvisoryLock, key: String, on db: any SQLDatabase, engine: SQLEngineKind)
        async throws
    {
        guard engine == .postgres else { return }
        try await db.raw("SELECT pg_advisory_xact_lock(\(bind: kind.rawValue), hashtext(\(bind: key)))").run()
    }

    /// Runs `body` in one transaction on one connection: `BEGIN IMMEDIATE` on SQLite (taking the write lock at
    /// once), `BEGIN` on PostgreSQL, first taking `lock` there when given. Commits when `body` returns,
    /// rolls back when it throws. `body` must use only the database it is given.
    ///
    /// On PostgreSQL within a request, the transaction is bounded by ``Deadline/databaseLimit`` as a whole (SPEC §11:
    /// a frozen server is a 503 at the limit); one given up rolls back rather than commit when the server answers.
    func transaction<T: Sendable>(
        lock: AdvisoryLock? = nil, _ body: @escaping @Sendable (any SQLDatabase) async throws -> T
    ) async throws -> T {
        guard engine == .postgres, let limit = Deadline.databaseLimit else {
            return try await unboundedTransaction(lock: lock, abandoned: nil, body)
        }
        let abandoned = Abandonment()
        do {
            return try await Deadline.run(within: limit) { [self] in
                try await unboundedTransaction(lock: lock, abandoned: abandoned, body)
            }
        } catch let exceeded as Deadline.Exceeded {
            abandoned.mark()
            throw exceeded
        }
    }

    /// Whether the request waiting for a transaction gave up on it (its commit then becomes a rollback).
    final class Abandonment: Sendable {
        private let marked = Atomic(false)
        var isMarked: Bool { marked.load(ordering: .sequentiallyConsistent) }
        func mark() { marked.store(true, ordering: .sequentiallyConsistent) }
    }

    private func unboundedTransaction<T: Sendable>(
        lock: AdvisoryLock?, abandoned: Abandonment?, _ body: @escaping @Sendable (any SQLDatabase) async throws -> T
    ) async throws -> T {
        let engine = engine
        let logger = logger
        return try await backend.withSession { [self] session in
            let db = timed(session)
            try await db.raw(engine == .sqlite ? "BEGIN IMMEDIATE" : "BEGIN").run()
            do {
                if let lock, engine == .postgres {
                    try await db.raw("SELECT pg_advisory_xact_lock(\(bind: lock.rawValue))").run()
                }
                let result = try await body(db)
                if abandoned?.isMarked == true { throw Deadline.Exceeded(limit: .zero) }
                try await db.raw("COMMIT").run()
                return result
            } catch {
                do {
                    try await db.raw("ROLLBACK").run()
                } catch let rollbackError {
                    logger.warning("Rollback failed", metadata: ["error": "\(String(reflecting: rollbackError))"])
                }
                throw error
            }
        }
    }

    /// The most rows of one multi-row `INSERT` (SQLite binds at most 32,766 values per statement).
    static let rowsPerInsert = 500

    /// Inserts `items` into `table`, ``rowsPerInsert`` rows per statement, all in one transaction.
    func insertRows<Item: Sendable>(
        into table: String, columns: [String], _ items: [Item],
        values: @escaping @Sendable (Item) -> [any Encodable & Sendable]
    ) async throws {
        try await transaction { db in
            var start = items.startIndex
            while start < items.endIndex {
                let end = min(start + Self.rowsPerInsert, items.endIndex)
                let insert = db.insert(into: table).columns(columns)
                for item in items[start..<end] { insert.values(values(item)) }
                try await insert.run()
                start = end
            }
        }
    }

    /// The most a user or log search's `total` reports, like the reference platform's searches (SPEC §9
    /// `include_totals`; its log search by criteria stops at 1,000 records too): exact below it, and a search
    /// matching a million users or events counts no further.
    public static let searchTotalCap = 1000

    /// The rows of `table` matching `predicate` in `order`, one page of them (and the count of all matches, or
    /// `totalCap` when there are more), or all of them when `page` is `nil`; read on ``reads``.
    func fetchPage<Item: Sendable>(
        from table: String, where predicate: (any SQLExpression)? = nil, orderBy order: [any SQLExpression],
        page: PageRequest?, totalCap: Int? = nil, _ item: (any SQLRow) throws -> Item
    ) async throws -> PageResult<Item> {
        try await fetchPage(
            fromSource: SQLIdentifier(table), where: predicate, orderBy: order, page: page, totalCap: totalCap, item)
    }

    /// ``fetchPage(from:where:orderBy:page:totalCap:_:)`` from `source`, a table or a join.
    func fetchPage<Item: Sendable>(
        fromSource source: any SQLExpression, where predicate: (any SQLExpression)? = nil,
        orderBy order: [any SQLExpression], page: PageRequest?, totalCap: Int? = nil,
        _ item: (any SQLRow) throws -> Item
    ) async throws -> PageResult<Item> {
        let select = reads.select().column(SQLLiteral.all).from(source)
        if let predicate { select.where(predicate) }
        order.forEach { select.orderBy($0) }
        if let page { select.limit(page.perPage).offset(page.offset) }
        let items = try await select.all().map(item)
        guard let page else { return PageResult(items: items, total: items.count) }
        // A short page that is not past the end tells the total without counting.
        if items.count < page.perPage, !items.isEmpty || page.offset == 0 {
            return PageResult(items: items, total: min(page.offset + items.count, totalCap ?? .max))
        }
        return PageResult(items: items, total: try await count(fromSource: source, where: predicate, upTo: totalCap))
    }

    /// `SELECT COUNT(*) FROM table WHERE predicate`, on `db` (in a transaction) or ``reads``; with `upTo`, it
    /// counts no further than that: `SELECT COUNT(*) FROM (SELECT 1 … LIMIT upTo)`.
    func count(
        from table: String, where predicate: (any SQLExpression)? = nil, upTo cap: Int? = nil,
        on db: (any SQLDatabase)? = nil
    ) async throws -> Int {
        try await count(fromSource: SQLIdentifier(table), where: predicate, upTo: cap, on: db)
    }

    /// ``count(from:where:upTo:on:)`` of `source`, a table or a join.
    func count(
        fromSource source: any SQLExpression, where predicate: (any SQLExpression)? = nil, upTo cap: Int? = nil,
        on db: (any SQLDatabase)? = nil
    ) async throws -> Int {
        let db = db ?? reads
        let matches = db.select().column(SQLLiteral.numeric("1")).from(source)
        if let predicate { matches.where(predicate) }
        if let cap { matches.limit(cap) }
        return try await db.raw("SELECT COUNT(*) AS n FROM (\(matches.select)) AS matches")
            .first(decodingColumn: "n", as: Int.self) ?? 0
    }

    /// `column ASC, tiebreaker ASC`: creation order, stable across pages.
    static func ascending(_ columns: String...) -> [any SQLExpression] {
        columns.map { SQLOrderBy(expression: SQLColumn($0), direction: SQLDirection.ascending) }
    }

    /// `column = value`.
    static func equals(_ column: String, _ value: any Encodable & Sendable) -> any SQLExpression {
        SQLBinaryExpression(SQLColumn(column), .equal, SQLBind(value))
    }

    /// `column IN (values…)`; `FALSE` for no values.
    static func isIn(_ column: String, _ values: [any Encodable & Sendable]) -> any SQLExpression {
        guard !values.isEmpty else { return SQLLiteral.boolean(false) }
        return SQLBinaryExpression(SQLColumn(column), .in, SQLBind.group(values))
    }

    /// The conjunction of `predicates`, or `nil` for none.
    static func allOf(_ predicates: [any SQLExpression]) -> (any SQLExpression)? {
        junction(predicates, .and)
    }

    /// The disjunction of `predicates`, or `nil` for none.
    static func anyOf(_ predicates: [any SQLExpression]) -> (any SQLExpression)? {
        junction(predicates, .or)
    }

    /// `((a) op (b) op …)`, parenthesized so that it can be combined with anything.
    private static func junction(_ predicates: [any SQLExpression], _ op: SQLBinaryOperator) -> (any SQLExpression)? {
        guard !predicates.isEmpty else { return nil }
        return SQLGroupExpression(
            SQLList(predicates.map { SQLGroupExpression($0) }, separator: SQLQueryString(" \(op) ")))
    }
}
