import WardenCore

/// Which requested scopes a user-facing grant carries (SPEC §5, §9): the OIDC scopes always; API scopes
/// only when an audience is requested and the API defines them, and, when the API has `enforce_policies`,
/// only those the user holds through roles — in an organization's login, the member's roles in that organization
/// count too (SPEC §19), and nowhere else. Unknown scopes are dropped.
struct ScopePolicy: Sendable {
    /// Scopes RBAC never filters (SPEC §9).
    static let openIDScopes: Set<String> = ["openid", "profile", "email", "offline_access"]

    /// The APIs and their scopes.
    let tenant: TenantCache
    /// The users' permissions, for APIs with `enforce_policies`.
    let roles: any RoleStore
    /// The members' roles in organizations.
    let organizations: any OrganizationStore

    /// A policy over the APIs of `tenant`, the permissions of `roles` and the organization roles of
    /// `organizations`.
    init(tenant: TenantCache, roles: any RoleStore, organizations: any OrganizationStore) {
        self.tenant = tenant
        self.roles = roles
        self.organizations = organizations
    }

    /// The granted scopes, in the order requested; `organizationID` names the organization of the login.
    func grantedScopes(
        _ requested: [String], audience: String?, userID: String, organizationID: String? = nil
    ) async throws -> [String] {
        var allowed = Self.openIDScopes
        if let audience, let api = try await tenant.resourceServer(identifier: audience) {
            var apiScopes = api.scopeValues
            if api.enforcePolicies {
                var held = try await roles.permissionNames(ofUser: userID, resourceServer: api.identifier)
                if let organizationID {
                    held.formUnion(
                        try await organizations.organizationPermissionNames(
                            ofUser: userID, organizationID: organizationID, resourceServer: api.identifier))
                }
                apiScopes.formIntersection(held)
            }
            allowed.formUnion(apiScopes)
        }
        return requested.filter(allowed.contains)
    }

    /// What the consent page says for each scope.
    func descriptions(of scopes: [String], audience: String?) async throws -> [ConsentPage.ScopeLine] {
        var api: ResourceServer?
        if let audience { api = try await tenant.resourceServer(identifier: audience) }
        return scopes.map { scope in
            let text =
                switch scope {
                case "openid": "Confirm who you are"
                case "profile": "See your name, nickname and picture"
                case "email": "See your e-mail address"
                case "offline_access": "Keep access while you are not using the application"
                default: "\(api?.scopes.first { $0.value == scope }?.description ?? scope) (\(api?.name ?? ""))"
                }
            return ConsentPage.ScopeLine(description: text)
        }
    }
}
