import SQLKit

extension Migration {
    /// Version 20 (SPEC §19): `organizations` (the ``Organization`` JSON in `data`, its unique `name` beside it),
    /// `organization_connections`, `organization_members` (by user too, for `/users/{id}/organizations` and the
    /// login's membership check), `organization_member_roles` and `organization_invitations` (the ticket by its
    /// SHA-256, unique; expiry indexed for housekeeping).
    static func organizations(_ ddl: DDL) -> [SQLQueryString] {
        [
            """
            CREATE TABLE organizations (
                id TEXT PRIMARY KEY,
                name TEXT NOT NULL UNIQUE,
                data TEXT NOT NULL,
                created_at BIGINT NOT NULL
            )
            """,
            """
            CREATE TABLE organization_connections (
                organization_id TEXT NOT NULL,
                connection_id TEXT NOT NULL,
                assign_membership_on_login \(ddl.boolean) NOT NULL,
                show_as_button \(ddl.boolean) NOT NULL,
                created_at BIGINT NOT NULL,
                PRIMARY KEY (organization_id, connection_id)
            )
            """,
            """
            CREATE TABLE organization_members (
                organization_id TEXT NOT NULL,
                user_id TEXT NOT NULL,
                created_at BIGINT NOT NULL,
                PRIMARY KEY (organization_id, user_id)
            )
            """,
            "CREATE INDEX organization_members_user ON organization_members (user_id)",
            """
            CREATE TABLE organization_member_roles (
                organization_id TEXT NOT NULL,
                user_id TEXT NOT NULL,
                role_id TEXT NOT NULL,
                PRIMARY KEY (organization_id, user_id, role_id)
            )
            """,
            """
            CREATE TABLE organization_invitations (
                id TEXT PRIMARY KEY,
                organization_id TEXT NOT NULL,
                ticket_hash TEXT NOT NULL UNIQUE,
                data TEXT NOT NULL,
                created_at BIGINT NOT NULL,
                expires_at BIGINT NOT NULL
            )
            """,
            "CREATE INDEX organization_invitations_organization ON organization_invitations (organization_id, created_at)",
            "CREATE INDEX organization_invitations_expiry ON organization_invitations (expires_at)",
        ]
    }
}
