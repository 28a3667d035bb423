import SQLKit
public import WardenCore

public import struct Foundation.Date

/// The operators' gauges (``WardenCore/GaugeStore``): two grouped `SELECT count(*)`s, sampled every few seconds.
extension SQLStore {
    public func undecidedBackchannelRequests(at now: Date) async throws -> (pending: Int, expired: Int) {
        let nowMilliseconds = now.millisecondsSince1970
        let expired = SQLBinaryExpression(SQLColumn("expires_at"), .lessThanOrEqual, SQLBind(nowMilliseconds))
        let rows = try await reads.select()
            .column(SQLAlias(expired, as: SQLIdentifier("expired")))
            .column(SQLAlias(SQLFunction("count", args: SQLLiteral.all), as: SQLIdentifier("n")))
            .from("ciba_requests")
            .where("status", .equal, BackchannelRequest.Status.pending.rawValue)
            .groupBy(SQLIdentifier("expired"))
            .all()
        var counts = (pending: 0, expired: 0)
        for row in rows {
            let n = Int(try row.decode(column: "n", as: Int64.self))
            if try row.decode(column: "expired", as: Bool.self) { counts.expired = n } else { counts.pending = n }
        }
        return counts
    }

    public func deliveryJobCounts() async throws -> [DeliveryJob.Kind: Int] {
        let rows = try await reads.select()
            .column("kind")
            .column(SQLAlias(SQLFunction("count", args: SQLLiteral.all), as: SQLIdentifier("n")))
            .from("delivery_jobs")
            .groupBy("kind")
            .all()
        var counts: [DeliveryJob.Kind: Int] = [:]
        for row in rows {
            counts[DeliveryJob.Kind(rawValue: try row.decode(column: "kind", as: String.self))] = Int(
                try row.decode(column: "n", as: Int64.self))
        }
        return counts
    }
}
