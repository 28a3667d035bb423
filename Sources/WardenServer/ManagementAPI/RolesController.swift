import Foundation
import Hummingbird
import WardenCore
import WardenWire

/// `/api/v2/roles` and `/api/v2/roles/{id}/permissions` (SPEC §9): named sets of API permissions, which
/// filter user-facing scopes on APIs with `enforce_policies` (RBAC).
struct RolesController {
    let runtime: WardenRuntime
    var audit: ManagementAudit { ManagementAudit(runtime: runtime) }

    func addRoutes(to group: RouterGroup<WardenRequestContext>) {
        group.get("roles") { request, context in
            try context.requireScope("read:roles")
            return try await list(request)
        }
        group.post("roles") { request, context in
            try await audit.change("Create a role", scope: "create:roles", request, context) {
                let body = try await ManagementBody.read(request, allowed: ["name", "description"])
                var role = Role(id: RandomToken.identifier(prefix: "rol_", length: 16), name: "", description: nil)
                try Self.apply(body, to: &role)
                try await ManagementRequest.write("role", conflict: "A role named \(role.name) already exists") {
                    try await runtime.store.insertRole(role)
                }
                return Response.json(try ManagementResponse.object(of: role), status: .created)
            }
        }
        group.get("roles/:id") { _, context in
            try context.requireScope("read:roles")
            return Response.json(try ManagementResponse.object(of: try await role(context)))
        }
        group.patch("roles/:id") { request, context in
            try await audit.change("Update a role", scope: "update:roles", request, context) {
                var role = try await role(context)
                try Self.apply(try await ManagementBody.read(request, allowed: ["name", "description"]), to: &role)
                try await ManagementRequest.write("role", conflict: "A role named \(role.name) already exists") {
                    try await runtime.store.updateRole(role)
                }
                return Response.json(try ManagementResponse.object(of: role))
            }
        }
        group.delete("roles/:id") { request, context in
            try await audit.change("Delete a role", scope: "delete:roles", request, context) {
                let id = try ManagementRequest.parameter("id", of: context)
                guard try await runtime.store.deleteRole(id: id) else { throw Self.notFound }
                return ManagementResponse.noContent
            }
        }
        addPermissionRoutes(to: group)
    }

    /// `GET|POST|DELETE /roles/{id}/permissions` with
    /// `{"permissions": [{"resource_server_identifier", "permission_name"}]}`.
    private func addPermissionRoutes(to group: RouterGroup<WardenRequestContext>) {
        group.get("roles/:id/permissions") { request, context in
            try context.requireScope("read:roles")
            let (page, totals) = try ManagementRequest.paging(request)
            let role = try await role(context)
            var items: [JSONValue] = []
            for permission in try await runtime.store.permissions(ofRole: role.id) {
                items.append(try await representation(permission))
            }
            return ManagementResponse.list(all: items, page: page, includeTotals: totals, name: "permissions")
        }
        group.post("roles/:id/permissions") { request, context in
            try await audit.change("Associate permissions with a role", scope: "update:roles", request, context) {
                let role = try await role(context)
                let (body, permissions) = try await Self.permissions(request)
                for (index, permission) in permissions.enumerated() {
                    try await checkDefined(permission, body, index)
                }
                try await runtime.store.addPermissions(permissions, toRole: role.id)
                return Response(status: .created)
            }
        }
        group.delete("roles/:id/permissions") { request, context in
            try await audit.change("Remove permissions from a role", scope: "update:roles", request, context) {
                let role = try await role(context)
                try await runtime.store.removePermissions(try await Self.permissions(request).1, fromRole: role.id)
                return ManagementResponse.noContent
            }
        }
    }

    private static let notFound = ManagementError.notFound("role", "The role does not exist.")

    private func role(_ context: WardenRequestContext) async throws -> Role {
        let id = try ManagementRequest.parameter("id", of: context)
        guard let role = try await runtime.store.role(id: id) else { throw Self.notFound }
        return role
    }

    /// Paged; `name_filter` keeps the roles whose name contains it, ignoring case (the vendor SDK's filter).
    private func list(_ request: Request) async throws -> Response {
        let (page, totals) = try ManagementRequest.paging(request)
        let items = { (roles: [Role]) in try roles.map { try ManagementResponse.object(of: $0) } }
        guard let filter = ManagementRequest.query(request)["name_filter"], !filter.isEmpty else {
            let result = try await runtime.store.roles(page: page)
            return ManagementResponse.list(
                try items(result.items), total: result.total, page: page, includeTotals: totals, name: "roles")
        }
        let matching = try await runtime.store.roles(page: nil).items.filter {
            $0.name.localizedCaseInsensitiveContains(filter)
        }
        return ManagementResponse.list(all: try items(matching), page: page, includeTotals: totals, name: "roles")
    }

    private static func apply(_ body: ManagementBody, to role: inout Role) throws {
        if body.has("name") || role.name.isEmpty { role.name = try body.requiredString("name") }
        if body.has("description") { role.description = try body.string("description") }
    }

    /// The body's non-empty `permissions` array.
    private static func permissions(_ request: Request) async throws -> (ManagementBody, [Permission]) {
        let body = try await ManagementBody.read(request, allowed: ["permissions"])
        let entries =
            try body.objects("permissions", allowed: ["resource_server_identifier", "permission_name"]) ?? []
        guard !entries.isEmpty else {
            throw body.invalid("permissions", "Expected a non-empty array of permissions")
        }
        let permissions = try entries.map {
            Permission(
                resourceServerIdentifier: try $0.requiredString("resource_server_identifier"),
                permissionName: try $0.requiredString("permission_name"))
        }
        return (body, permissions)
    }

    /// A permission can only be granted when its API defines it as a scope.
    private func checkDefined(_ permission: Permission, _ body: ManagementBody, _ index: Int) async throws {
        let identifier = permission.resourceServerIdentifier
        guard let server = try await runtime.store.resourceServer(identifier: identifier) else {
            throw body.invalid("permissions[\(index)]", "No resource server with identifier \(identifier)")
        }
        guard server.scopeValues.contains(permission.permissionName) else {
            throw body.invalid(
                "permissions[\(index)]", "The API \(identifier) does not define \(permission.permissionName)")
        }
    }

    /// A permission with the name of its API and the scope's description, as the vendor lists them.
    private func representation(_ permission: Permission) async throws -> JSONValue {
        var members = try ManagementResponse.members(of: permission)
        if let server = try await runtime.store.resourceServer(identifier: permission.resourceServerIdentifier) {
            members["resource_server_name"] = .string(server.name)
            let description = server.scopes.first { $0.value == permission.permissionName }?.description
            if let description { members["description"] = .string(description) }
        }
        return .object(members)
    }
}
