/// Every Management API scope (SPEC §9).
enum ManagementScopes {
    static let all: [String] = {
        var scopes: [String] = []
        for resource in [
            "clients", "client_grants", "resource_servers", "users", "roles", "post_login_rules", "connections",
            "organizations", "organization_connections",
        ] {
            for verb in ["read", "create", "update", "delete"] { scopes.append("\(verb):\(resource)") }
        }
        scopes += [
            "read:logs", "create:guardian_enrollment_tickets", "read:guardian_enrollments",
            "delete:guardian_enrollments", "read:signing_keys", "create:signing_keys", "update:signing_keys",
            "read:guardian_factors", "update:guardian_factors", "read:mfa_policies", "update:mfa_policies",
            "read:user_idp_tokens",
            "create:user_tickets",
            // SPEC §17: a user's passkeys and other authentication methods
            "read:authentication_methods", "update:authentication_methods", "delete:authentication_methods",
        ]
        // SPEC §19: an organization's members, their roles and invitations
        for resource in ["organization_members", "organization_member_roles", "organization_invitations"] {
            for verb in ["read", "create", "delete"] { scopes.append("\(verb):\(resource)") }
        }
        return scopes
    }()
}
