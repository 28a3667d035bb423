import Foundation
import Hummingbird
import WardenCore
import WardenWire

/// The console's organizations (SPEC §14, §19): list and add, and each organization's settings, members, enabled
/// connections and invitations, through ``OrganizationsController``'s validation.
extension ConsoleController {
    func addOrganizationRoutes(to admin: RouterGroup<WardenRequestContext>) {
        let organizations = OrganizationsController(runtime: runtime)
        let form = ConsoleOrganizationsPage.form
        admin.get("organizations") { request, context in
            await page(request, context, current: "Organizations") { chrome in
                try await organizationsPage(request, chrome: chrome, form: form)
            }
        }
        admin.post("organizations") { request, context in
            await submit(
                request, context, "Create an organization", current: "Organizations",
                refused: { chrome, typed, error in
                    try await organizationsPage(
                        request, chrome: chrome, form: form.again({ typed[$0] }, refused: error))
                }
            ) { typed, _ in
                let organization = try await organizations.create(Self.organizationBody(form.body { typed[$0] }))
                return .redirect(organizationPath(organization.id) + "?done=created")
            }
        }
        admin.get("organizations/:id") { request, context in
            await page(request, context, current: "Organizations") { chrome in
                let organization = try await shown { try await organizations.organization(context) }
                return try await organizationPage(
                    organization, chrome: chrome, notice: ConsolePages.notice(request, Self.organizationNotices))
            }
        }
        admin.post("organizations/:id") { request, context in
            await submit(
                request, context, "Update an organization", current: "Organizations",
                refused: { chrome, typed, error in
                    try await organizationPage(
                        try await organizations.organization(context), chrome: chrome,
                        form: form.again({ typed[$0] }, refused: error))
                }
            ) { typed, _ in
                var organization = try await organizations.organization(context)
                try await organizations.update(&organization, with: Self.organizationBody(form.body { typed[$0] }))
                return .redirect(organizationPath(organization.id) + "?done=saved")
            }
        }
        admin.post("organizations/:id/delete") { request, context in
            await change(request, context, "Delete an organization") { _ in
                let organization = try await organizations.organization(context)
                _ = try await runtime.store.deleteOrganization(id: organization.id)
                try await runtime.tenantChanged()
                return base + "organizations?done=deleted"
            }
        }
        addOrganizationPartRoutes(to: admin, organizations)
    }

    /// Members, connections and invitations: one small form each.
    private func addOrganizationPartRoutes(
        to admin: RouterGroup<WardenRequestContext>, _ organizations: OrganizationsController
    ) {
        let parts: [(String, String, @Sendable (Organization, RequestParameters) async throws -> String)] = [
            ("members", "Add an organization member", addMember),
            (
                "members/remove", "Remove an organization member",
                { organization, typed in
                    try await runtime.store.removeOrganizationMembers(
                        [typed["user_id"] ?? ""], organizationID: organization.id)
                    return "member-removed"
                }
            ),
            (
                "connections", "Enable a connection for an organization",
                { organization, typed in
                    _ = try await organizations.enable(
                        [
                            "connection_id": .string(typed["connection_id"] ?? ""),
                            "assign_membership_on_login": .bool(typed["assign_membership_on_login"] == "on"),
                        ], for: organization)
                    return "connection-enabled"
                }
            ),
            (
                "connections/remove", "Disable a connection for an organization",
                { organization, typed in
                    _ = try await runtime.store.deleteOrganizationConnection(
                        organizationID: organization.id, connectionID: typed["connection_id"] ?? "")
                    try await runtime.tenantChanged()
                    return "connection-disabled"
                }
            ),
            (
                "invitations/remove", "Delete an organization invitation",
                { organization, typed in
                    _ = try await runtime.store.deleteOrganizationInvitation(
                        id: typed["invitation_id"] ?? "", organizationID: organization.id)
                    return "invitation-deleted"
                }
            ),
        ]
        for (path, description, operation) in parts {
            admin.post(RouterPath("organizations/:id/" + path)) { request, context in
                await change(request, context, description) { typed in
                    let organization = try await organizations.organization(context)
                    let done = try await operation(organization, typed)
                    return organizationPath(organization.id) + "?done=" + done
                }
            }
        }
        admin.post("organizations/:id/invitations") { request, context in
            await submit(request, context, "Invite to an organization", current: "Organizations") { typed, chrome in
                let organization = try await organizations.organization(context)
                let made = try await organizations.invite(
                    [
                        "inviter": ["name": .string(typed["inviter"] ?? "")],
                        "invitee": ["email": .string(typed["email"] ?? "")],
                        "client_id": .string(typed["client_id"] ?? ""),
                    ], to: organization)
                var page = try await organizationPage(organization, chrome: chrome, notice: "The invitation was sent.")
                page.invitationURL = made.objectValue?["invitation_url"]?.stringValue
                return .page(page)
            }
        }
    }

    static let organizationNotices = [
        "created": "The organization was added.", "saved": "The organization was saved.",
        "member-added": "The member was added.", "member-removed": "The member was removed.",
        "connection-enabled": "The connection was enabled.", "connection-disabled": "The connection was disabled.",
        "invitation-deleted": "The invitation was deleted.",
    ]

    /// Adds the member a form names by user id or e-mail address (an unknown one: 404 `inexistent_user`).
    private func addMember(_ organization: Organization, _ typed: RequestParameters) async throws -> String {
        let given = (typed["member"] ?? "").trimmingCharacters(in: .whitespaces)
        var userID = given
        if given.contains("@"), let user = try await runtime.store.users(email: given.lowercased()).first {
            userID = user.user.userID
        }
        try await ManagementRequest.write("user") {
            try await runtime.store.addOrganizationMembers(
                [userID], organizationID: organization.id, at: runtime.clock.now())
        }
        return "member-added"
    }

    /// The form's body in the API's shape: the flat branding colors nested under `branding.colors`.
    static func organizationBody(_ body: [String: JSONValue]) -> [String: JSONValue] {
        var body = body
        guard case .object(var branding)? = body["branding"] else { return body }
        var colors: [String: JSONValue] = [:]
        for key in ["primary", "page_background"] {
            if let value = branding.removeValue(forKey: key), value != .null { colors[key] = value }
        }
        if !colors.isEmpty { branding["colors"] = .object(colors) }
        body["branding"] = .object(branding.filter { $0.value != .null })
        return body
    }

    private func organizationPath(_ id: String) -> String { base + "organizations/" + Self.pathSegment(id) }

    private func organizationsPage(_ request: Request, chrome: ConsoleChrome, form: ConsoleForm) async throws
        -> ConsoleOrganizationsPage
    {
        let page = ConsolePager.request(ManagementRequest.query(request))
        let found = try await runtime.store.organizations(page: page)
        return ConsoleOrganizationsPage(
            chrome: chrome,
            rows: found.items.map {
                .init(
                    href: organizationPath($0.id), name: $0.name, displayName: DisplayText.clean($0.displayName ?? ""),
                    id: $0.id)
            },
            pager: ConsolePager(
                base + "organizations", [], page: page, hasMore: page.offset + found.items.count < found.total),
            notice: ConsolePages.notice(request, ["deleted": "The organization was deleted."]),
            form: ConsoleFormView(form))
    }

    private func organizationPage(
        _ organization: Organization, chrome: ConsoleChrome, notice: String? = nil, form: ConsoleForm? = nil
    ) async throws -> ConsoleOrganizationPage {
        let store = runtime.store
        var shown = (try ManagementResponse.object(of: organization)).objectValue ?? [:]
        if case .object(var branding)? = shown["branding"] {
            for (key, value) in branding.removeValue(forKey: "colors")?.objectValue ?? [:] { branding[key] = value }
            shown["branding"] = .object(branding)
        }
        var members: [ConsoleOrganizationPage.Member] = []
        let memberIDs = try await store.organizationMembers(organizationID: organization.id, after: nil, limit: 200)
        for userID in memberIDs {
            let email = try await store.user(id: userID)?.user.email
            members.append(.init(userID: userID, label: DisplayText.clean(email.map { "\($0) (\(userID))" } ?? userID)))
        }
        let allConnections = try await store.connections(strategies: [], name: nil, page: nil).items
        let enabled = try await store.organizationConnections(organizationID: organization.id)
        let invitations = try await store.organizationInvitations(
            organizationID: organization.id, page: PageRequest(page: 0, perPage: 100))
        let clients = try await store.clients(page: nil).items.filter { $0.client.initiateLoginURI != nil }
        return ConsoleOrganizationPage(
            title: DisplayText.clean(organization.shownName), chrome: chrome, path: organizationPath(organization.id),
            notice: notice,
            form: ConsoleFormView(form ?? ConsoleOrganizationsPage.form.showing(.object(shown))),
            members: members,
            connections: enabled.map { item in
                .init(
                    id: item.connectionID,
                    name: DisplayText.clean(
                        allConnections.first { $0.id == item.connectionID }?.name ?? item.connectionID),
                    assigns: item.assignMembershipOnLogin)
            },
            choices: allConnections.filter { connection in !enabled.contains { $0.connectionID == connection.id } }
                .map { .init(value: $0.id, label: DisplayText.clean($0.name)) },
            invitations: invitations.items.map {
                .init(id: $0.id, email: DisplayText.clean($0.inviteeEmail), expires: ConsolePages.time($0.expiresAt))
            },
            clients: clients.map { .init(value: $0.client.clientID, label: DisplayText.clean($0.client.name)) })
    }
}
