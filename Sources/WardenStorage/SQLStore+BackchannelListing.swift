import SQLKit
public import WardenCore

public import struct Foundation.Date

/// ``WardenCore/BackchannelListingStore``: one page of `ciba_requests` by status and expiry.
extension SQLStore {
    public func pendingBackchannelRequests(at now: Date, page: PageRequest) async throws
        -> PageResult<BackchannelRequest>
    {
        let pending = SQLBinaryExpression(
            SQLBinaryExpression(SQLColumn("status"), .equal, SQLBind(BackchannelRequest.Status.pending.rawValue)),
            .and, SQLBinaryExpression(SQLColumn("expires_at"), .greaterThan, SQLBind(now.millisecondsSince1970)))
        return try await fetchPage(
            from: "ciba_requests", where: pending,
            orderBy: [SQLOrderBy(expression: SQLColumn("created_at"), direction: SQLDirection.descending)],
            page: page
        ) { try Self.backchannelRequest($0) }
    }
}
