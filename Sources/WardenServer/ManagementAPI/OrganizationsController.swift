import Foundation
import Hummingbird
import WardenCore
import WardenWire

/// `/api/v2/organizations` (SPEC §19): organizations, their enabled connections, and `/users/{id}/organizations`,
/// in the reference platform's shapes. Members and their roles are in `OrganizationsController+Members.swift`,
/// invitations in `OrganizationsController+Invitations.swift`.
struct OrganizationsController {
    let runtime: WardenRuntime
    var audit: ManagementAudit { ManagementAudit(runtime: runtime) }
    var store: any WardenStore { runtime.store }

    static let properties: Set<String> = ["name", "display_name", "branding", "metadata"]

    func addRoutes(to group: RouterGroup<WardenRequestContext>) {
        group.get("organizations") { request, context in
            try context.requireScope("read:organizations")
            return try await list(request)
        }
        group.post("organizations") { request, context in
            try await audit.change("Create an organization", scope: "create:organizations", request, context) {
                let organization = try await create(try await ManagementRequest.object(request))
                return Response.json(try ManagementResponse.object(of: organization), status: .created)
            }
        }
        group.get("organizations/:id") { _, context in
            try context.requireScope("read:organizations")
            return Response.json(try ManagementResponse.object(of: try await organization(context)))
        }
        group.get("organizations/name/:name") { _, context in
            try context.requireScope("read:organizations")
            let name = try ManagementRequest.parameter("name", of: context)
            guard let organization = try await store.organization(name: name) else { throw Self.notFound }
            return Response.json(try ManagementResponse.object(of: organization))
        }
        group.patch("organizations/:id") { request, context in
            try await audit.change("Update an organization", scope: "update:organizations", request, context) {
                var organization = try await organization(context)
                try await update(&organization, with: try await ManagementRequest.object(request))
                return Response.json(try ManagementResponse.object(of: organization))
            }
        }
        group.delete("organizations/:id") { request, context in
            try await audit.change(
                "Delete an organization", scope: "delete:organizations", request, context, reloadsTenant: true
            ) {
                guard try await store.deleteOrganization(id: try ManagementRequest.parameter("id", of: context)) else {
                    throw Self.notFound
                }
                return ManagementResponse.noContent
            }
        }
        group.get("users/:id/organizations") { request, context in
            try context.requireScope("read:organizations")
            let userID = try ManagementRequest.parameter("id", of: context)
            guard try await store.user(id: userID) != nil else {
                throw ManagementError.notFound("user", "The user does not exist.")
            }
            let (page, totals) = try ManagementRequest.paging(request)
            let result = try await store.organizations(ofUser: userID, page: page)
            return ManagementResponse.list(
                try result.items.map { try ManagementResponse.object(of: $0) }, total: result.total, page: page,
                includeTotals: totals, name: "organizations")
        }
        addConnectionRoutes(to: group)
        addMemberRoutes(to: group)
        addInvitationRoutes(to: group)
    }

    static let notFound = ManagementError.notFound("organization", "The organization does not exist.")

    /// Validates `members` as the body of `POST /organizations` and stores the organization; shared by the
    /// Management API and the console (SPEC §14).
    func create(_ members: [String: JSONValue]) async throws -> Organization {
        var organization = Organization(id: RandomToken.identifier(prefix: "org_", length: 16), name: "")
        try Self.apply(try ManagementBody(checking: members, allowed: Self.properties), to: &organization)
        try await ManagementRequest.write("organization") { try await store.insertOrganization(organization) }
        return organization
    }

    /// Applies `members` as a `PATCH /organizations/{id}` body and stores the result; every node's cache of the
    /// organizations logins read is renewed (``TenantCache``). Shared with the console.
    func update(_ organization: inout Organization, with members: [String: JSONValue]) async throws {
        try Self.apply(try ManagementBody(checking: members, allowed: Self.properties), to: &organization)
        let updated = organization
        try await ManagementRequest.write("organization") { try await store.updateOrganization(updated) }
        try await runtime.tenantChanged()
    }

    /// The organization the `id` path parameter names (else 404 `inexistent_organization`).
    func organization(_ context: WardenRequestContext) async throws -> Organization {
        guard let organization = try await store.organization(id: try ManagementRequest.parameter("id", of: context))
        else { throw Self.notFound }
        return organization
    }

    /// Paged by name (`page`/`per_page`), or by checkpoint: `take` with an optional `from` (the last id of the
    /// previous answer) answers `{"organizations", "next"?}` whatever `include_totals` says (SPEC §19).
    private func list(_ request: Request) async throws -> Response {
        if let checkpoint = try ManagementRequest.checkpoint(request) {
            let found = try await store.organizations(after: checkpoint.from, limit: checkpoint.take + 1)
            let page = found.prefix(checkpoint.take)
            var object: [String: JSONValue] = [
                "organizations": .array(try page.map { try ManagementResponse.object(of: $0) })
            ]
            if found.count > checkpoint.take, let last = page.last { object["next"] = .string(last.id) }
            return Response.json(.object(object))
        }
        let (page, totals) = try ManagementRequest.paging(request)
        let result = try await store.organizations(page: page)
        return ManagementResponse.list(
            try result.items.map { try ManagementResponse.object(of: $0) }, total: result.total, page: page,
            includeTotals: totals, name: "organizations")
    }

    /// The body's members applied to `organization` (SPEC §19): `name` 1–50 of `[a-z0-9_-]` (required on create),
    /// `display_name` up to 255 characters, `branding` (`logo_url` an https URL, `colors` CSS hex colors),
    /// `metadata` up to 25 string values. Anything else is 400 `invalid_body`.
    static func apply(_ body: ManagementBody, to organization: inout Organization) throws {
        if body.has("name") || organization.name.isEmpty {
            let name = try body.requiredString("name")
            guard Organization.isValidName(name) else {
                throw body.invalid("name", "Must be 1 to 50 lowercase letters, digits, '_' or '-'")
            }
            organization.name = name
        }
        if body.has("display_name") {
            let shown = try body.string("display_name")
            guard (shown?.count ?? 1) <= 255, shown?.isEmpty != true else {
                throw body.invalid("display_name", "Must be 1 to 255 characters")
            }
            organization.displayName = shown
        }
        if body.has("branding") { organization.branding = try branding(body) }
        if body.has("metadata") {
            let metadata = try body.jsonObject("metadata") ?? [:]
            guard metadata.count <= 25 else { throw body.invalid("metadata", "At most 25 keys") }
            organization.metadata = try metadata.mapValues { value in
                guard let text = value.stringValue, text.count <= 255 else {
                    throw body.invalid("metadata", "Values must be strings of at most 255 characters")
                }
                return text
            }
        }
    }

    private static func branding(_ body: ManagementBody) throws -> Organization.Branding? {
        guard let branding = try body.object("branding", allowed: ["logo_url", "colors"]) else { return nil }
        let colors = try branding.object("colors", allowed: ["primary", "page_background"])
        for key in ["primary", "page_background"] {
            if let colors, let color = try colors.string(key), !Organization.Branding.Colors.isColor(color) {
                throw colors.invalid(key, "Must be a CSS hex color such as #1a2b3c")
            }
        }
        return Organization.Branding(
            logoURL: try branding.url("logo_url", schemes: ["https"]),
            colors: try colors.map {
                Organization.Branding.Colors(
                    primary: try $0.string("primary"), pageBackground: try $0.string("page_background"))
            })
    }

    // MARK: - Enabled connections

    /// `GET|POST /organizations/{id}/enabled_connections` and `GET|PATCH|DELETE …/{connection_id}`.
    private func addConnectionRoutes(to group: RouterGroup<WardenRequestContext>) {
        group.get("organizations/:id/enabled_connections") { request, context in
            try context.requireScope("read:organization_connections")
            let organization = try await organization(context)
            let (page, totals) = try ManagementRequest.paging(request)
            var items: [JSONValue] = []
            for enabled in try await store.organizationConnections(organizationID: organization.id) {
                items.append(try await representation(enabled))
            }
            return ManagementResponse.list(all: items, page: page, includeTotals: totals, name: "enabled_connections")
        }
        group.post("organizations/:id/enabled_connections") { request, context in
            try await audit.change(
                "Enable a connection for an organization", scope: "create:organization_connections", request, context
            ) {
                let enabled = try await enable(
                    try await ManagementRequest.object(request), for: try await organization(context))
                return Response.json(try await representation(enabled), status: .created)
            }
        }
        group.get("organizations/:id/enabled_connections/:connection_id") { _, context in
            try context.requireScope("read:organization_connections")
            return Response.json(try await representation(try await enabledConnection(context)))
        }
        group.patch("organizations/:id/enabled_connections/:connection_id") { request, context in
            try await audit.change(
                "Update an organization's connection", scope: "update:organization_connections", request, context,
                reloadsTenant: true
            ) {
                var enabled = try await enabledConnection(context)
                let body = try await ManagementBody.read(
                    request, allowed: ["assign_membership_on_login", "show_as_button"])
                enabled.assignMembershipOnLogin =
                    try body.bool("assign_membership_on_login") ?? enabled.assignMembershipOnLogin
                enabled.showAsButton = try body.bool("show_as_button") ?? enabled.showAsButton
                try await ManagementRequest.write("connection") {
                    try await store.updateOrganizationConnection(enabled)
                }
                return Response.json(try await representation(enabled))
            }
        }
        group.delete("organizations/:id/enabled_connections/:connection_id") { request, context in
            try await audit.change(
                "Disable a connection for an organization", scope: "delete:organization_connections", request,
                context, reloadsTenant: true
            ) {
                let enabled = try await enabledConnection(context)
                _ = try await store.deleteOrganizationConnection(
                    organizationID: enabled.organizationID, connectionID: enabled.connectionID)
                return ManagementResponse.noContent
            }
        }
    }

    /// Validates `members` as the body of `POST /organizations/{id}/enabled_connections` and enables the
    /// connection (renewing every node's cache, as ``update(_:with:)``); shared with the console.
    func enable(_ members: [String: JSONValue], for organization: Organization) async throws
        -> OrganizationConnection
    {
        let body = try ManagementBody(
            checking: members, allowed: ["connection_id", "assign_membership_on_login", "show_as_button"])
        let connectionID = try body.requiredString("connection_id")
        guard try await store.connection(id: connectionID) != nil else {
            throw body.invalid("connection_id", "No connection with id \(connectionID)")
        }
        let enabled = OrganizationConnection(
            organizationID: organization.id, connectionID: connectionID,
            assignMembershipOnLogin: try body.bool("assign_membership_on_login") ?? false,
            showAsButton: try body.bool("show_as_button") ?? true)
        try await ManagementRequest.write("connection") { try await store.insertOrganizationConnection(enabled) }
        try await runtime.tenantChanged()
        return enabled
    }

    private func enabledConnection(_ context: WardenRequestContext) async throws -> OrganizationConnection {
        let organization = try await organization(context)
        let connectionID = try ManagementRequest.parameter("connection_id", of: context)
        guard
            let enabled = try await store.organizationConnections(organizationID: organization.id)
                .first(where: { $0.connectionID == connectionID })
        else {
            throw ManagementError.notFound("connection", "The connection is not enabled for this organization.")
        }
        return enabled
    }

    /// `{"connection_id", "assign_membership_on_login", "show_as_button", "connection": {"name", "strategy"}}`.
    private func representation(_ enabled: OrganizationConnection) async throws -> JSONValue {
        var object: [String: JSONValue] = [
            "connection_id": .string(enabled.connectionID),
            "assign_membership_on_login": .bool(enabled.assignMembershipOnLogin),
            "show_as_button": .bool(enabled.showAsButton),
        ]
        if let connection = try await store.connection(id: enabled.connectionID) {
            object["connection"] = [
                "name": .string(connection.name), "strategy": .string(connection.strategy.rawValue),
            ]
        }
        return .object(object)
    }
}
