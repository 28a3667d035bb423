import Hummingbird
import WardenCore
import WardenWire

/// Runs a Management API change and writes its log event (SPEC §9: every create, update and delete writes
/// one; §10: `sapi` when it succeeded, `fapi` when it was refused or failed). Changes to what the token path
/// reads (clients, APIs, client grants) reload this node's ``TenantCache`` so they apply at once.
struct ManagementAudit {
    let runtime: WardenRuntime

    /// Checks `scope`, runs `operation` and logs the outcome as `description` (e.g. "Create a client").
    func change(
        _ description: String, scope: String, _ request: Request, _ context: WardenRequestContext,
        reloadsTenant: Bool = false, _ operation: () async throws -> Response
    ) async throws -> Response {
        do {
            try context.requireScope(scope)
            let response = try await operation()
            if reloadsTenant { try await runtime.tenantChanged() }
            await record(.managementSucceeded, description, request, context, status: response.status.code)
            return response
        } catch {
            let refusal = error as? ManagementError
            // An outage is answered 503 (SPEC §11, ErrorMiddleware); anything else that is not a refusal, 500.
            let status = refusal?.statusCode ?? (runtime.store.isUnavailable(error) ? 503 : 500)
            await record(
                .managementFailed, description, request, context, status: status,
                failure: refusal.map { ["errorCode": .string($0.errorCode), "message": .string($0.message)] })
            throw error
        }
    }

    /// Queues the event: the calling management client, the request line and the response status (never the
    /// request body, which may carry secrets and passwords).
    private func record(
        _ type: LogEventType, _ description: String, _ request: Request, _ context: WardenRequestContext,
        status: Int, failure: [String: JSONValue]? = nil
    ) async {
        let clientID = context.managementClientID
        var clientName: String?
        if let clientID { clientName = try? await runtime.cache.client(id: clientID)?.client.name }
        var response: [String: JSONValue] = ["statusCode": .number(Double(status))]
        if let failure { response["body"] = .object(failure) }
        runtime.eventLog.record(
            LogEvent(
                date: runtime.clock.now(), type: type, description: description, clientID: clientID,
                clientName: clientName,
                ip: ClientAddress.ip(of: request, context: context, trusted: runtime.trustedProxies),
                userAgent: request.headers[.userAgent],
                details: [
                    "request": ["method": .string(request.method.rawValue), "path": .string(request.uri.path)],
                    "response": .object(response),
                ]))
    }
}
