import SQLKit
public import WardenCore

public import struct Foundation.Date

/// `organizations(id, name, data, created_at)` (the ``Organization`` JSON in `data`) and
/// `organization_connections(organization_id, connection_id, assign_membership_on_login, show_as_button,
/// created_at)` (SPEC §19). Members, their roles and invitations are in `SQLStore+OrganizationMembers.swift`.
extension SQLStore {
    public func insertOrganization(_ organization: Organization) async throws {
        try await UniqueViolation.mapped(Self.organizationConflict(organization)) {
            try await sql.insert(into: "organizations").columns("id", "name", "data", "created_at")
                .values(
                    organization.id, organization.name, try JSONColumn.encode(organization),
                    Date().millisecondsSince1970
                )
                .run()
        }
    }

    public func organization(id: String) async throws -> Organization? {
        try await reads.select().column("data").from("organizations").where("id", .equal, id).first()
            .map { try $0.json("data") }
    }

    public func organization(name: String) async throws -> Organization? {
        try await reads.select().column("data").from("organizations").where("name", .equal, name).first()
            .map { try $0.json("data") }
    }

    public func organizations(page: PageRequest?) async throws -> PageResult<Organization> {
        try await fetchPage(from: "organizations", orderBy: Self.ascending("name", "id"), page: page) {
            try $0.json("data")
        }
    }

    public func organizations(after id: String?, limit: Int) async throws -> [Organization] {
        let select = reads.select().column("data").from("organizations")
        if let id { select.where("id", .greaterThan, id) }
        return try await select.orderBy("id").limit(limit).all().map { try $0.json("data") }
    }

    public func updateOrganization(_ organization: Organization) async throws {
        let updated = try await UniqueViolation.mapped(Self.organizationConflict(organization)) {
            try await sql.update("organizations").set("name", to: organization.name)
                .set("data", to: try JSONColumn.encode(organization))
                .where("id", .equal, organization.id).returning("id").first()
        }
        guard updated != nil else { throw StorageError.notFound }
    }

    /// In one transaction: the organization's rows in every organization table, then the organization.
    public func deleteOrganization(id: String) async throws -> Bool {
        try await transaction { db in
            for table in [
                "organization_connections", "organization_members", "organization_member_roles",
                "organization_invitations",
            ] {
                try await db.delete(from: table).where("organization_id", .equal, id).run()
            }
            return try await db.delete(from: "organizations").where("id", .equal, id).returning("id").first() != nil
        }
    }

    // MARK: - Enabled connections

    public func organizationConnections(organizationID: String) async throws -> [OrganizationConnection] {
        try await reads.select().column(SQLLiteral.all).from("organization_connections")
            .where("organization_id", .equal, organizationID).orderBy("created_at").orderBy("connection_id")
            .all().map(Self.organizationConnection)
    }

    public func insertOrganizationConnection(_ connection: OrganizationConnection) async throws {
        try await UniqueViolation.mapped("The connection is already enabled for this organization") {
            try await sql.insert(into: "organization_connections")
                .columns(
                    "organization_id", "connection_id", "assign_membership_on_login", "show_as_button", "created_at"
                )
                .values(
                    connection.organizationID, connection.connectionID, connection.assignMembershipOnLogin,
                    connection.showAsButton, Date().millisecondsSince1970
                )
                .run()
        }
    }

    public func updateOrganizationConnection(_ connection: OrganizationConnection) async throws {
        let updated = try await sql.update("organization_connections")
            .set("assign_membership_on_login", to: connection.assignMembershipOnLogin)
            .set("show_as_button", to: connection.showAsButton)
            .where("organization_id", .equal, connection.organizationID)
            .where("connection_id", .equal, connection.connectionID)
            .returning("connection_id").first()
        guard updated != nil else { throw StorageError.notFound }
    }

    public func deleteOrganizationConnection(organizationID: String, connectionID: String) async throws -> Bool {
        try await sql.delete(from: "organization_connections").where("organization_id", .equal, organizationID)
            .where("connection_id", .equal, connectionID).returning("connection_id").first() != nil
    }

    private static func organizationConflict(_ organization: Organization) -> String {
        "An organization with name '\(organization.name)' already exists"
    }

    private static func organizationConnection(_ row: any SQLRow) throws -> OrganizationConnection {
        OrganizationConnection(
            organizationID: try row.value("organization_id"), connectionID: try row.value("connection_id"),
            assignMembershipOnLogin: try row.value("assign_membership_on_login"),
            showAsButton: try row.value("show_as_button"))
    }
}
