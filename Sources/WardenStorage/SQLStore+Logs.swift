import SQLKit
public import WardenCore

/// `logs(seq, log_id, date, type, client_id, user_id, user_name, ip, audience, client_name, data)`: `seq` orders
/// the events, the searchable fields have columns, `data` holds the whole event as JSON.
extension SQLStore {
    /// Rows per `INSERT`: keeps a statement's bound values well under SQLite's limit (32766).
    private static let logRowsPerStatement = 500

    /// The columns written for an event besides `data`, each with its value.
    private static func logColumns(_ event: LogEvent) -> [(name: String, value: any Encodable & Sendable)] {
        [
            ("log_id", event.logID), ("date", event.date.millisecondsSince1970), ("type", event.type.rawValue),
            ("client_id", event.clientID), ("user_id", event.userID), ("user_name", event.userName),
            ("ip", event.ip), ("audience", event.audience), ("client_name", event.clientName),
        ]
    }

    /// Appends events in one multi-row `INSERT` (batches over 500 events: several, in one transaction). An
    /// event whose `log_id` is already stored is skipped, so a retried batch is not duplicated.
    public func appendLogs(_ events: [LogEvent]) async throws {
        guard let first = events.first else { return }
        let columns = Self.logColumns(first).map(\.name) + ["data"]
        let rows = events.map { event in
            (Self.logColumns(event).map(\.value) + [LogEventDocument(event).json])
                .map { SQLBind($0) as any SQLExpression }
        }
        let insert = { @Sendable (db: any SQLDatabase, rows: ArraySlice<[any SQLExpression]>) in
            try await db.insert(into: "logs").columns(columns).rows(rows).ignoringConflicts(with: "log_id").run()
        }
        let size = Self.logRowsPerStatement
        guard rows.count > size else { return try await insert(sql, rows[...]) }
        try await transaction { db in
            for start in stride(from: 0, to: rows.count, by: size) {
                try await insert(db, rows[start..<min(start + size, rows.count)])
            }
        }
    }

    public func log(id: String) async throws -> LogEvent? {
        try await reads.select().column("data").from("logs").where("log_id", .equal, id).first().map(Self.logEvent)
    }

    /// Events matching every field of `filter` (any of the field's values), ordered by `seq`. A field outside
    /// ``LogFilter/fields`` matches nothing. The total stops at ``searchTotalCap``: counting every event of a
    /// month-long log was most of a page's time (`q=type:fp` 282 ms, page 1,000 661 ms on PostgreSQL with
    /// 5,000,000 events, issue 16).
    public func searchLogs(_ filter: LogFilter, ascending: Bool, page: PageRequest) async throws -> PageResult<
        LogEvent
    > {
        let predicates = filter.terms.sorted { $0.key < $1.key }.map { field, values in
            LogFilter.fields.contains(field)
                ? Self.isIn(field, values) : SQLLiteral.boolean(false)
        }
        return try await fetchPage(
            from: "logs", where: Self.allOf(predicates),
            orderBy: [
                SQLOrderBy(expression: SQLColumn("seq"), direction: ascending ? SQLDirection.ascending : .descending)
            ],
            page: page, totalCap: Self.searchTotalCap
        ) { try Self.logEvent($0) }
    }

    /// Up to `take` events stored after `logID`, oldest first; none when `logID` is unknown.
    public func logs(after logID: String?, take: Int) async throws -> [LogEvent] {
        let select = reads.select().column("data").from("logs")
        if let logID {
            let checkpoint = SQLSubquery.select { $0.column("seq").from("logs").where("log_id", .equal, logID) }
            select.where(SQLColumn("seq"), .greaterThan, checkpoint)
        }
        return try await select.orderBy("seq").limit(take).all().map(Self.logEvent)
    }

    private static func logEvent(_ row: any SQLRow) throws -> LogEvent {
        try row.json("data", as: LogEventDocument.self).event
    }
}
