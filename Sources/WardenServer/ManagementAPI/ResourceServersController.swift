import Hummingbird
import WardenCore
import WardenWire

/// `/api/v2/resource-servers` (SPEC §9): the APIs access tokens are issued for. `{id}` is the id or the
/// URL-encoded identifier; the system API (the Management API itself, `is_system: true`) is read-only.
struct ResourceServersController {
    let runtime: WardenRuntime
    var audit: ManagementAudit { ManagementAudit(runtime: runtime) }

    /// PATCH may set everything but the identifier, which client grants and tokens refer to.
    static let updatable = ResourceServer.writablePropertyNames.subtracting(["identifier"])

    func addRoutes(to group: RouterGroup<WardenRequestContext>) {
        group.get("resource-servers") { request, context in
            try context.requireScope("read:resource_servers")
            let (page, totals) = try ManagementRequest.paging(request)
            let result = try await runtime.store.resourceServers(page: page)
            let items = try result.items.map { try ManagementResponse.object(of: $0) }
            return ManagementResponse.list(
                items, total: result.total, page: page, includeTotals: totals, name: "resource_servers")
        }
        group.post("resource-servers") { request, context in
            try await audit.change(
                "Create a resource server", scope: "create:resource_servers", request, context, reloadsTenant: true
            ) {
                let server = try await create(try await ManagementRequest.object(request))
                return Response.json(try ManagementResponse.object(of: server), status: .created)
            }
        }
        group.get("resource-servers/:id") { _, context in
            try context.requireScope("read:resource_servers")
            return Response.json(try ManagementResponse.object(of: try await server(context)))
        }
        group.patch("resource-servers/:id") { request, context in
            try await audit.change(
                "Update a resource server", scope: "update:resource_servers", request, context, reloadsTenant: true
            ) {
                var server = try await changeableServer(context)
                try await update(&server, with: try await ManagementRequest.object(request))
                return Response.json(try ManagementResponse.object(of: server))
            }
        }
        group.delete("resource-servers/:id") { request, context in
            try await audit.change(
                "Delete a resource server", scope: "delete:resource_servers", request, context, reloadsTenant: true
            ) {
                let server = try await changeableServer(context)
                guard try await runtime.store.deleteResourceServer(id: server.id) else { throw Self.notFound }
                return ManagementResponse.noContent
            }
        }
    }

    private static let notFound = ManagementError.notFound("resource_server", "The resource server does not exist")

    private func server(_ context: WardenRequestContext) async throws -> ResourceServer {
        try await server(id: try ManagementRequest.parameter("id", of: context))
    }

    /// The API whose id or identifier is `id`, or 404 `inexistent_resource_server`.
    func server(id: String) async throws -> ResourceServer {
        guard let server = try await runtime.store.resourceServer(idOrIdentifier: id) else { throw Self.notFound }
        return server
    }

    /// The API named by the path, unless it is the system API (see ``changeable(_:)``).
    private func changeableServer(_ context: WardenRequestContext) async throws -> ResourceServer {
        try changeable(try await server(context))
    }

    /// `server`, unless it is the system API (403 `operation_not_allowed`, SPEC §1), which neither the Management
    /// API nor the console may change.
    func changeable(_ server: ResourceServer) throws -> ResourceServer {
        guard !server.isSystem else {
            throw ManagementError.operationNotAllowed(
                "The system API (\(server.identifier)) cannot be changed or deleted")
        }
        return server
    }

    /// Validates `members` as the body of `PATCH /resource-servers/{id}` and stores `server` with its changes;
    /// shared by the Management API and the console (SPEC §14).
    func update(_ server: inout ResourceServer, with members: [String: JSONValue]) async throws {
        let body = try ManagementBody(checking: members, allowed: Self.updatable)
        try await apply(body, to: &server)
        let changed = server
        try await ManagementRequest.write("resource_server") {
            try await runtime.store.updateResourceServer(changed)
        }
    }

    /// Validates `members` as the body of `POST /resource-servers` and stores the API; shared by the
    /// Management API and the console (SPEC §14).
    func create(_ members: [String: JSONValue]) async throws -> ResourceServer {
        let body = try ManagementBody(checking: members, allowed: ResourceServer.writablePropertyNames)
        let identifier = try body.requiredString("identifier")
        guard identifier.count <= 600 else { throw body.invalid("identifier", "Longer than 600 characters") }
        var server = ResourceServer(
            id: RandomToken.identifier(prefix: "", length: 24), identifier: identifier, name: identifier)
        try await apply(body, to: &server)
        try await ManagementRequest.write(
            "resource_server", conflict: "A resource server with identifier \(identifier) already exists"
        ) {
            try await runtime.store.insertResourceServer(server)
        }
        return server
    }

    /// Sets every property the body carries; `null` resets it to its default (SPEC §9).
    private func apply(_ body: ManagementBody, to server: inout ResourceServer) async throws {
        let defaults = ResourceServer(id: server.id, identifier: server.identifier, name: server.identifier)
        if body.has("name") { server.name = try body.string("name") ?? defaults.name }
        if body.has("scopes") { server.scopes = try Self.scopes(body) }
        if body.has("token_lifetime") {
            server.tokenLifetime = try body.integer("token_lifetime", in: 1...2_592_000) ?? defaults.tokenLifetime
        }
        if body.has("signing_alg") {
            let alg = try body.string("signing_alg", oneOf: SigningAlgorithm.allCases.map(\.rawValue))
            server.signingAlg = alg.flatMap(SigningAlgorithm.init(rawValue:)) ?? defaults.signingAlg
            _ = try await runtime.keys.currentKey(for: server.signingAlg)
        }
        if body.has("authorization_details") {
            server.authorizationDetails = try (body.objects("authorization_details", allowed: ["type"]) ?? []).map {
                ResourceServer.AuthorizationDetailType(type: try $0.requiredString("type"))
            }
        }
        if body.has("enforce_policies") {
            server.enforcePolicies = try body.bool("enforce_policies") ?? defaults.enforcePolicies
        }
        if body.has("allow_offline_access") {
            server.allowOfflineAccess = try body.bool("allow_offline_access") ?? defaults.allowOfflineAccess
        }
        if body.has("skip_consent_for_verifiable_first_party_clients") {
            server.skipConsentForVerifiableFirstPartyClients =
                try body.bool("skip_consent_for_verifiable_first_party_clients")
                ?? defaults.skipConsentForVerifiableFirstPartyClients
        }
    }

    /// `scopes`: `[{value, description}]`, values unique and free of spaces (they travel space-separated).
    private static func scopes(_ body: ManagementBody) throws -> [ResourceServer.Scope] {
        var scopes: [ResourceServer.Scope] = []
        for entry in try body.objects("scopes", allowed: ["value", "description"]) ?? [] {
            let value = try entry.requiredString("value")
            guard !value.contains(where: \.isWhitespace) else { throw entry.invalid("value", "Contains a space") }
            guard !scopes.contains(where: { $0.value == value }) else {
                throw entry.invalid("value", "Duplicate scope \(value)")
            }
            scopes.append(ResourceServer.Scope(value: value, description: try entry.string("description")))
        }
        return scopes
    }
}

extension ResourceServerStore {
    /// The API whose identifier is `identifier` (where a path's `{id}` may also be the API's id).
    func resourceServer(identifier: String) async throws -> ResourceServer? {
        try await resourceServer(idOrIdentifier: identifier).flatMap { $0.identifier == identifier ? $0 : nil }
    }
}
