import Hummingbird
import WardenCore
import WardenWire

/// `/api/v2/logs` (SPEC §9, §10): the event log, searched with `q` (or `search`) and paged by `page`, or read
/// forward from a checkpoint with `from={log_id}&take=N` (oldest first).
struct LogsController {
    let runtime: WardenRuntime

    func addRoutes(to group: RouterGroup<WardenRequestContext>) {
        group.get("logs") { request, context in
            try context.requireScope("read:logs")
            if let checkpoint = try ManagementRequest.checkpoint(request) {
                let events = try await runtime.store.logs(after: checkpoint.from, take: checkpoint.take)
                return Response.json(.array(events.map(Self.representation)))
            }
            let parameters = ManagementRequest.query(request)
            let filter = try LogQuery.parse(parameters["q"] ?? parameters["search"] ?? "")
            let ascending = try ManagementRequest.sort(request, fields: ["date"])?.ascending ?? false
            let (page, totals) = try ManagementRequest.paging(request)
            let result = try await runtime.store.searchLogs(filter, ascending: ascending, page: page)
            return ManagementResponse.list(
                result.items.map(Self.representation), total: result.total, page: page, includeTotals: totals,
                name: "logs")
        }
        group.get("logs/:id") { _, context in
            try context.requireScope("read:logs")
            let id = try ManagementRequest.parameter("id", of: context)
            guard let event = try await runtime.store.log(id: id) else {
                throw ManagementError.notFound("log", "The log does not exist")
            }
            return Response.json(Self.representation(event))
        }
    }

    /// A log record: `log_id`, `date`, `type`, `description`, `client_id`, `client_name`, `ip`, `user_agent`,
    /// `user_id`, `user_name`, `audience`, `scope`, `organization_id`, `organization_name` (SPEC §19), `details`; absent fields are left out.
    static func representation(_ event: LogEvent) -> JSONValue {
        var members: [String: JSONValue] = [
            "log_id": .string(event.logID), "date": ManagementResponse.timestamp(event.date),
            "type": .string(event.type.rawValue),
        ]
        let optional = [
            ("description", event.description), ("client_id", event.clientID), ("client_name", event.clientName),
            ("ip", event.ip), ("user_agent", event.userAgent), ("user_id", event.userID),
            ("user_name", event.userName), ("audience", event.audience), ("scope", event.scope),
            ("organization_id", event.organizationID), ("organization_name", event.organizationName),
        ]
        for case (let key, let value?) in optional { members[key] = .string(value) }
        if !event.details.isEmpty { members["details"] = .object(event.details) }
        return .object(members)
    }
}
