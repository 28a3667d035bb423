import Hummingbird
import WardenCore
import WardenWire

/// `/api/v2/client-grants` (SPEC §9): which client may obtain which scopes of an API with
/// `client_credentials`; `{"id", "client_id", "audience", "scope": [...]}`.
struct ClientGrantsController {
    let runtime: WardenRuntime
    var audit: ManagementAudit { ManagementAudit(runtime: runtime) }

    func addRoutes(to group: RouterGroup<WardenRequestContext>) {
        group.get("client-grants") { request, context in
            try context.requireScope("read:client_grants")
            return try await list(request)
        }
        group.post("client-grants") { request, context in
            try await audit.change(
                "Create client grant", scope: "create:client_grants", request, context, reloadsTenant: true
            ) {
                try Self.representation(try await create(try await ManagementRequest.object(request)), status: .created)
            }
        }
        group.get("client-grants/:id") { _, context in
            try context.requireScope("read:client_grants")
            return try Self.representation(try await grant(context))
        }
        group.patch("client-grants/:id") { request, context in
            try await audit.change(
                "Update client grant", scope: "update:client_grants", request, context, reloadsTenant: true
            ) {
                var grant = try await grant(context)
                let body = try await ManagementBody.read(request, allowed: ["scope"])
                grant.scope = try await scope(body, audience: grant.audience)
                try await ManagementRequest.write("client_grant") {
                    try await runtime.store.updateClientGrant(grant)
                }
                return try Self.representation(grant)
            }
        }
        group.delete("client-grants/:id") { request, context in
            try await audit.change(
                "Delete client grant", scope: "delete:client_grants", request, context, reloadsTenant: true
            ) {
                let id = try ManagementRequest.parameter("id", of: context)
                guard try await runtime.store.deleteClientGrant(id: id) else { throw Self.notFound }
                return ManagementResponse.noContent
            }
        }
    }

    static let notFound = ManagementError.notFound("client_grant", "The client grant does not exist")

    private func grant(_ context: WardenRequestContext) async throws -> ClientGrant {
        let id = try ManagementRequest.parameter("id", of: context)
        guard let grant = try await runtime.store.clientGrant(id: id) else { throw Self.notFound }
        return grant
    }

    /// `?client_id=&audience=` filters; `page`/`per_page`, or the vendor SDK's `from`/`take`, where `from` is
    /// the `next` of the previous answer (here, the number of the next page).
    private func list(_ request: Request) async throws -> Response {
        let query = ManagementRequest.query(request)
        var (page, totals) = try ManagementRequest.paging(request)
        let checkpoint = try ManagementRequest.checkpoint(request)
        if let checkpoint {
            let number = try ManagementRequest.integer(checkpoint.from, name: "from", default: 0, range: 0...1_000_000)
            page = PageRequest(page: number, perPage: checkpoint.take)
        }
        let result = try await runtime.store.clientGrants(
            clientID: query["client_id"].flatMap { $0.isEmpty ? nil : $0 },
            audience: query["audience"].flatMap { $0.isEmpty ? nil : $0 }, page: page)
        let hasMore = checkpoint != nil && page.offset + result.items.count < result.total
        return ManagementResponse.list(
            try result.items.map { try ManagementResponse.object(of: $0) }, total: result.total,
            page: page, includeTotals: totals, name: "client_grants", next: hasMore ? String(page.page + 1) : nil)
    }

    /// Validates `members` as the body of `POST /client-grants` and stores the grant; shared by the Management
    /// API and the console (SPEC §14).
    func create(_ members: [String: JSONValue]) async throws -> ClientGrant {
        let body = try ManagementBody(checking: members, allowed: ClientGrant.writablePropertyNames)
        let clientID = try body.requiredString("client_id")
        let audience = try body.requiredString("audience")
        guard try await runtime.store.client(id: clientID) != nil else {
            throw body.invalid("client_id", "No client with client_id \(clientID)")
        }
        let grant = ClientGrant(
            id: RandomToken.identifier(prefix: "cgr_", length: 16), clientID: clientID, audience: audience,
            scope: try await scope(body, audience: audience))
        try await ManagementRequest.write(
            "client_grant", conflict: "A client grant for this client and audience already exists"
        ) {
            try await runtime.store.insertClientGrant(grant)
        }
        return grant
    }

    /// `scope`: required, each value a scope the API defines.
    private func scope(_ body: ManagementBody, audience: String) async throws -> [String] {
        guard let scope = try body.strings("scope") else {
            throw body.invalid("scope", "Missing required property")
        }
        guard let server = try await runtime.store.resourceServer(identifier: audience) else {
            throw body.invalid("audience", "No resource server with identifier \(audience)")
        }
        if let unknown = scope.first(where: { !server.scopeValues.contains($0) }) {
            throw body.invalid("scope", "The API \(audience) does not define the scope \(unknown)")
        }
        return scope
    }

    private static func representation(_ grant: ClientGrant, status: HTTPResponse.Status = .ok) throws -> Response {
        .json(try ManagementResponse.object(of: grant), status: status)
    }
}
