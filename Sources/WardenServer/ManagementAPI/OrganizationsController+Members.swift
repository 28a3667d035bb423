import Foundation
import Hummingbird
import WardenCore
import WardenWire

/// `GET|POST|DELETE /organizations/{id}/members` `{"members": [user ids]}` and `GET|POST|DELETE
/// /organizations/{id}/members/{user_id}/roles` `{"roles": [role ids]}` (SPEC §19): POST and DELETE answer 204, as
/// on the reference platform. A role given in an organization counts only in that organization's logins.
extension OrganizationsController {
    func addMemberRoutes(to group: RouterGroup<WardenRequestContext>) {
        group.get("organizations/:id/members") { request, context in
            try context.requireScope("read:organization_members")
            return try await members(of: try await organization(context), request)
        }
        group.post("organizations/:id/members") { request, context in
            try await audit.change("Add organization members", scope: "create:organization_members", request, context) {
                let organization = try await organization(context)
                let userIDs = try await Self.ids("members", of: request)
                try await ManagementRequest.write("user") {
                    try await store.addOrganizationMembers(
                        userIDs, organizationID: organization.id, at: runtime.clock.now())
                }
                return ManagementResponse.noContent
            }
        }
        group.delete("organizations/:id/members") { request, context in
            try await audit.change(
                "Remove organization members", scope: "delete:organization_members", request, context
            ) {
                let organization = try await organization(context)
                try await store.removeOrganizationMembers(
                    try await Self.ids("members", of: request), organizationID: organization.id)
                return ManagementResponse.noContent
            }
        }
        group.get("organizations/:id/members/:user_id/roles") { request, context in
            try context.requireScope("read:organization_member_roles")
            let (organization, userID) = try await member(context)
            let (page, totals) = try ManagementRequest.paging(request)
            let roles = try await store.organizationRoles(userID: userID, organizationID: organization.id)
            return ManagementResponse.list(
                all: try roles.map { try ManagementResponse.object(of: $0) }, page: page, includeTotals: totals,
                name: "roles")
        }
        group.post("organizations/:id/members/:user_id/roles") { request, context in
            try await audit.change(
                "Assign roles to an organization member", scope: "create:organization_member_roles", request,
                context
            ) {
                let (organization, userID) = try await member(context)
                let roleIDs = try await Self.ids("roles", of: request)
                try await ManagementRequest.write("role") {
                    try await store.assignOrganizationRoles(roleIDs, userID: userID, organizationID: organization.id)
                }
                return ManagementResponse.noContent
            }
        }
        group.delete("organizations/:id/members/:user_id/roles") { request, context in
            try await audit.change(
                "Remove roles from an organization member", scope: "delete:organization_member_roles", request,
                context
            ) {
                let (organization, userID) = try await member(context)
                try await store.removeOrganizationRoles(
                    try await Self.ids("roles", of: request), userID: userID, organizationID: organization.id)
                return ManagementResponse.noContent
            }
        }
    }

    /// The organization and the member the path names: a user who is not a member is 404 `inexistent_user`.
    private func member(_ context: WardenRequestContext) async throws -> (Organization, String) {
        let organization = try await organization(context)
        let userID = try ManagementRequest.parameter("user_id", of: context)
        guard try await store.isOrganizationMember(userID: userID, organizationID: organization.id) else {
            throw ManagementError.notFound("user", "The user is not a member of the organization.")
        }
        return (organization, userID)
    }

    /// Members as `{"user_id", "email", "name", "picture"}`: paged by user id (`page`/`per_page`), or by checkpoint
    /// (`take`, `from` the last user id of the previous answer) as `{"members", "next"?}`.
    private func members(of organization: Organization, _ request: Request) async throws -> Response {
        if let checkpoint = try ManagementRequest.checkpoint(request) {
            let found = try await store.organizationMembers(
                organizationID: organization.id, after: checkpoint.from, limit: checkpoint.take + 1)
            let page = Array(found.prefix(checkpoint.take))
            var object: [String: JSONValue] = ["members": .array(try await representations(page))]
            if found.count > checkpoint.take, let last = page.last { object["next"] = .string(last) }
            return Response.json(.object(object))
        }
        let (page, totals) = try ManagementRequest.paging(request)
        let result = try await store.organizationMembers(organizationID: organization.id, page: page)
        return ManagementResponse.list(
            try await representations(result.items), total: result.total, page: page, includeTotals: totals,
            name: "members")
    }

    /// One read for the page's users (at most 100).
    private func representations(_ userIDs: [String]) async throws -> [JSONValue] {
        let users = try await store.users(ids: userIDs)
        var items: [JSONValue] = []
        for userID in userIDs {
            var object: [String: JSONValue] = ["user_id": .string(userID)]
            if let user = users[userID]?.user {
                if let email = user.email { object["email"] = .string(email) }
                if let name = user.name { object["name"] = .string(name) }
                if let picture = user.picture { object["picture"] = .string(picture) }
            }
            items.append(.object(object))
        }
        return items
    }

    /// The body's non-empty array of ids under `key` (`members`, `roles`).
    static func ids(_ key: String, of request: Request) async throws -> [String] {
        let body = try await ManagementBody.read(request, allowed: [key])
        guard let ids = try body.strings(key), !ids.isEmpty, ids.count <= 100 else {
            throw body.invalid(key, "Expected an array of 1 to 100 ids")
        }
        return ids
    }
}
