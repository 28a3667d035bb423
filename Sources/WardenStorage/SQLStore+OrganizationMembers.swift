import SQLKit
public import WardenCore

public import struct Foundation.Date

/// `organization_members(organization_id, user_id, created_at)`, `organization_member_roles(organization_id, user_id,
/// role_id)` and `organization_invitations(id, organization_id, ticket_hash, data, created_at, expires_at)` (SPEC
/// §19), the ``OrganizationInvitation`` JSON in `data`.
extension SQLStore {
    /// In one transaction: every user must exist, then one `INSERT … ON CONFLICT DO NOTHING`.
    public func addOrganizationMembers(_ userIDs: [String], organizationID: String, at date: Date) async throws {
        let userIDs = Array(Set(userIDs))
        guard !userIDs.isEmpty else { return }
        try await transaction { db in
            try await self.requireAll("users", column: "user_id", values: userIDs, on: db)
            try await db.insert(into: "organization_members").columns("organization_id", "user_id", "created_at")
                .rows(userIDs.map { [SQLBind(organizationID), SQLBind($0), SQLBind(date.millisecondsSince1970)] })
                .ignoringConflicts()
                .run()
        }
    }

    public func removeOrganizationMembers(_ userIDs: [String], organizationID: String) async throws {
        guard !userIDs.isEmpty else { return }
        try await transaction { db in
            for table in ["organization_member_roles", "organization_members"] {
                try await db.delete(from: table).where("organization_id", .equal, organizationID)
                    .where(Self.isIn("user_id", userIDs)).run()
            }
        }
    }

    public func organizationMembers(organizationID: String, page: PageRequest) async throws -> PageResult<String> {
        try await fetchPage(
            from: "organization_members", where: Self.equals("organization_id", organizationID),
            orderBy: Self.ascending("user_id"), page: page
        ) { try $0.value("user_id") }
    }

    public func organizationMembers(organizationID: String, after userID: String?, limit: Int) async throws
        -> [String]
    {
        let select = reads.select().column("user_id").from("organization_members")
            .where("organization_id", .equal, organizationID)
        if let userID { select.where("user_id", .greaterThan, userID) }
        return try await select.orderBy("user_id").limit(limit).all().map { try $0.value("user_id") }
    }

    public func isOrganizationMember(userID: String, organizationID: String) async throws -> Bool {
        try await reads.select().column("user_id").from("organization_members")
            .where("organization_id", .equal, organizationID).where("user_id", .equal, userID).first() != nil
    }

    /// A join of the user's memberships with `organizations`, by name.
    public func organizations(ofUser userID: String, page: PageRequest?) async throws -> PageResult<Organization> {
        let source = SQLJoin(
            method: SQLJoinMethod.inner, table: SQLIdentifier("organization_members"),
            expression: SQLBinaryExpression(
                SQLColumn("organization_id", table: "organization_members"), .equal,
                SQLColumn("id", table: "organizations")))
        return try await fetchPage(
            fromSource: SQLList([SQLIdentifier("organizations"), source], separator: SQLRaw(" ")),
            where: SQLBinaryExpression(SQLColumn("user_id", table: "organization_members"), .equal, SQLBind(userID)),
            orderBy: [SQLColumn("name", table: "organizations"), SQLColumn("id", table: "organizations")], page: page
        ) { try $0.json("data") }
    }

    // MARK: - Members' roles

    /// In one transaction: the user must be a member and every role exist, then one `INSERT … ON CONFLICT DO
    /// NOTHING`.
    public func assignOrganizationRoles(_ roleIDs: [String], userID: String, organizationID: String) async throws {
        let roleIDs = Array(Set(roleIDs))
        guard !roleIDs.isEmpty else { return }
        try await transaction { db in
            guard
                try await db.select().column("user_id").from("organization_members")
                    .where("organization_id", .equal, organizationID).where("user_id", .equal, userID).first() != nil
            else { throw StorageError.notFound }
            try await self.requireAll("roles", column: "id", values: roleIDs, on: db)
            try await db.insert(into: "organization_member_roles").columns("organization_id", "user_id", "role_id")
                .rows(roleIDs.map { [SQLBind(organizationID), SQLBind(userID), SQLBind($0)] })
                .ignoringConflicts()
                .run()
        }
    }

    public func removeOrganizationRoles(_ roleIDs: [String], userID: String, organizationID: String) async throws {
        try await sql.delete(from: "organization_member_roles").where("organization_id", .equal, organizationID)
            .where("user_id", .equal, userID).where(Self.isIn("role_id", roleIDs)).run()
    }

    public func organizationRoles(userID: String, organizationID: String) async throws -> [Role] {
        try await reads.select().column(SQLColumn("id", table: "roles")).column("name").column("description")
            .from("roles")
            .join(
                "organization_member_roles", on: SQLColumn("role_id", table: "organization_member_roles"), .equal,
                SQLColumn("id", table: "roles")
            )
            .where(SQLColumn("organization_id", table: "organization_member_roles"), .equal, SQLBind(organizationID))
            .where(SQLColumn("user_id", table: "organization_member_roles"), .equal, SQLBind(userID))
            .orderBy("name").all().map(Self.role)
    }

    public func organizationPermissionNames(
        ofUser userID: String, organizationID: String, resourceServer: String
    ) async throws -> Set<String> {
        try await permissionNames(
            ofRolesIn: "organization_member_roles",
            matching: [("organization_id", organizationID), ("user_id", userID)], resourceServer: resourceServer,
            on: reads)
    }

    // MARK: - Invitations

    public func insertOrganizationInvitation(_ invitation: OrganizationInvitation) async throws {
        try await sql.insert(into: "organization_invitations")
            .columns("id", "organization_id", "ticket_hash", "data", "created_at", "expires_at")
            .values(
                invitation.id, invitation.organizationID, invitation.ticketHash, try JSONColumn.encode(invitation),
                invitation.createdAt.millisecondsSince1970, invitation.expiresAt.millisecondsSince1970
            )
            .run()
    }

    public func organizationInvitation(id: String, organizationID: String) async throws -> OrganizationInvitation? {
        try await reads.select().column("data").from("organization_invitations").where("id", .equal, id)
            .where("organization_id", .equal, organizationID).first().map { try $0.json("data") }
    }

    public func organizationInvitations(organizationID: String, page: PageRequest) async throws
        -> PageResult<OrganizationInvitation>
    {
        try await fetchPage(
            from: "organization_invitations", where: Self.equals("organization_id", organizationID),
            orderBy: [
                SQLOrderBy(expression: SQLColumn("created_at"), direction: SQLDirection.descending),
                SQLOrderBy(expression: SQLColumn("id"), direction: SQLDirection.descending),
            ], page: page
        ) { try $0.json("data") }
    }

    public func deleteOrganizationInvitation(id: String, organizationID: String) async throws -> Bool {
        try await sql.delete(from: "organization_invitations").where("id", .equal, id)
            .where("organization_id", .equal, organizationID).returning("id").first() != nil
    }

    public func organizationInvitation(ticketHash: String) async throws -> OrganizationInvitation? {
        try await reads.select().column("data").from("organization_invitations")
            .where("ticket_hash", .equal, ticketHash).first().map { try $0.json("data") }
    }

    /// One `DELETE … WHERE ticket_hash = ? AND expires_at > ? RETURNING data`.
    public func consumeOrganizationInvitation(ticketHash: String, now: Date) async throws -> OrganizationInvitation? {
        try await sql.delete(from: "organization_invitations").where("ticket_hash", .equal, ticketHash)
            .where("expires_at", .greaterThan, now.millisecondsSince1970).returning("data").first()
            .map { try $0.json("data") }
    }
}
