import SQLKit
public import WardenCore

public import struct Foundation.Date

/// The console's hourly counts (``WardenCore/ActivityStore``): one grouped `SELECT` over the `logs_date` index.
extension SQLStore {
    public func hourlyEventCounts(of types: [LogEventType], since: Date) async throws -> [HourlyEventCount] {
        guard !types.isEmpty else { return [] }
        let hour = SQLBinaryExpression(SQLColumn("date"), .divide, SQLLiteral.numeric("3600000"))
        let rows = try await reads.select()
            .column(SQLAlias(hour, as: SQLIdentifier("hour")))
            .column("type")
            .column(SQLAlias(SQLFunction("count", args: SQLLiteral.all), as: SQLIdentifier("n")))
            .from("logs")
            .where("date", .greaterThanOrEqual, since.millisecondsSince1970)
            .where("type", .in, types.map(\.rawValue))
            .groupBy(SQLIdentifier("hour")).groupBy("type")
            .all()
        return try rows.map { row in
            HourlyEventCount(
                hour: Date(timeIntervalSince1970: Double(try row.decode(column: "hour", as: Int64.self)) * 3600),
                type: LogEventType(rawValue: try row.decode(column: "type", as: String.self)),
                count: Int(try row.decode(column: "n", as: Int64.self)))
        }
    }
}
