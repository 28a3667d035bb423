import SQLKit
public import WardenCore

/// `roles(id, name, description)`, `role_permissions(role_id, resource_server_identifier, permission_name)` and
/// `user_roles(user_id, role_id)`.
extension SQLStore {
    public func insertRole(_ role: Role) async throws {
        try await UniqueViolation.mapped(Self.roleConflict(role)) {
            try await sql.insert(into: "roles").columns("id", "name", "description")
                .values(role.id, role.name, role.description).run()
        }
    }

    public func role(id: String) async throws -> Role? {
        try await sql.select().column(SQLLiteral.all).from("roles").where("id", .equal, id).first().map(Self.role)
    }

    /// Roles ordered by name.
    public func roles(page: PageRequest?) async throws -> PageResult<Role> {
        try await fetchPage(from: "roles", orderBy: Self.ascending("name", "id"), page: page) { try Self.role($0) }
    }

    /// Renames or re-describes a role; throws ``StorageError/notFound``, or ``StorageError/conflict(_:)`` when
    /// the name belongs to another role.
    public func updateRole(_ role: Role) async throws {
        let updated = try await UniqueViolation.mapped(Self.roleConflict(role)) {
            try await sql.update("roles").set("name", to: role.name).set("description", to: role.description)
                .where("id", .equal, role.id).returning("id").first()
        }
        guard updated != nil else { throw StorageError.notFound }
    }

    /// Deletes the role, its permissions and its assignments to users, in the tenant and in organizations.
    public func deleteRole(id: String) async throws -> Bool {
        try await transaction { db in
            try await db.delete(from: "role_permissions").where("role_id", .equal, id).run()
            try await db.delete(from: "user_roles").where("role_id", .equal, id).run()
            try await db.delete(from: "organization_member_roles").where("role_id", .equal, id).run()
            return try await db.delete(from: "roles").where("id", .equal, id).returning("id").first() != nil
        }
    }

    /// Adds permissions (idempotent); throws ``StorageError/notFound`` when the role does not exist.
    public func addPermissions(_ permissions: [Permission], toRole roleID: String) async throws {
        guard !permissions.isEmpty else { return }
        try await transaction { db in
            try await self.requireAll("roles", column: "id", values: [roleID], on: db)
            try await db.insert(into: "role_permissions")
                .columns("role_id", "resource_server_identifier", "permission_name")
                .rows(
                    permissions.map {
                        [SQLBind(roleID), SQLBind($0.resourceServerIdentifier), SQLBind($0.permissionName)]
                    }
                )
                .ignoringConflicts()
                .run()
        }
    }

    public func removePermissions(_ permissions: [Permission], fromRole roleID: String) async throws {
        let matches = permissions.map { permission in
            SQLBinaryExpression(
                Self.equals("resource_server_identifier", permission.resourceServerIdentifier), .and,
                Self.equals("permission_name", permission.permissionName))
        }
        guard let anyOfThem = Self.anyOf(matches) else { return }
        try await sql.delete(from: "role_permissions").where("role_id", .equal, roleID).where(anyOfThem).run()
    }

    /// The role's permissions ordered by API and name; empty for an unknown role.
    public func permissions(ofRole roleID: String) async throws -> [Permission] {
        try await sql.select().columns("resource_server_identifier", "permission_name").from("role_permissions")
            .where("role_id", .equal, roleID)
            .orderBy("resource_server_identifier").orderBy("permission_name")
            .all()
            .map { row in
                Permission(
                    resourceServerIdentifier: try row.value("resource_server_identifier"),
                    permissionName: try row.value("permission_name"))
            }
    }

    /// Assigns roles (idempotent); throws ``StorageError/notFound`` when the user or one of the roles does not
    /// exist.
    public func assignRoles(_ roleIDs: [String], toUser userID: String) async throws {
        let roleIDs = Array(Set(roleIDs))
        guard !roleIDs.isEmpty else { return }
        try await transaction { db in
            try await self.requireAll("users", column: "user_id", values: [userID], on: db)
            try await self.requireAll("roles", column: "id", values: roleIDs, on: db)
            try await db.insert(into: "user_roles").columns("user_id", "role_id")
                .rows(roleIDs.map { [SQLBind(userID), SQLBind($0)] })
                .ignoringConflicts()
                .run()
        }
    }

    public func removeRoles(_ roleIDs: [String], fromUser userID: String) async throws {
        guard !roleIDs.isEmpty else { return }
        try await sql.delete(from: "user_roles")
            .where("user_id", .equal, userID)
            .where(Self.isIn("role_id", roleIDs))
            .run()
    }

    /// The user's roles ordered by name.
    public func roles(ofUser userID: String) async throws -> [Role] {
        try await sql.select().columns(SQLColumn("id", table: "roles"), SQLColumn("name"), SQLColumn("description"))
            .from("roles")
            .join("user_roles", on: SQLColumn("role_id", table: "user_roles"), .equal, SQLColumn("id", table: "roles"))
            .where(SQLColumn("user_id", table: "user_roles"), .equal, SQLBind(userID))
            .orderBy("name")
            .all()
            .map(Self.role)
    }

    public func permissionNames(ofUser userID: String, resourceServer identifier: String) async throws -> Set<String> {
        try await permissionNames(
            ofRolesIn: "user_roles", matching: [("user_id", userID)], resourceServer: identifier, on: sql)
    }

    /// The distinct permissions on the API `identifier` of the roles (`role_id`) of the rows of `table` whose columns
    /// equal `matching`: a user's tenant roles (`user_roles`), a member's roles in an organization.
    func permissionNames(
        ofRolesIn table: String, matching: [(column: String, value: String)], resourceServer identifier: String,
        on db: any SQLDatabase
    ) async throws -> Set<String> {
        var query = db.select().distinct().column(SQLColumn("permission_name", table: "role_permissions"))
            .from(table)
            .join(
                "role_permissions", on: SQLColumn("role_id", table: "role_permissions"), .equal,
                SQLColumn("role_id", table: table)
            )
            .where(SQLColumn("resource_server_identifier", table: "role_permissions"), .equal, SQLBind(identifier))
        for (column, value) in matching {
            query = query.where(SQLColumn(column, table: table), .equal, SQLBind(value))
        }
        return Set(try await query.all(decodingColumn: "permission_name", as: String.self))
    }

    /// Throws ``StorageError/notFound`` unless every one of `values` (distinct) is in `table.column`.
    func requireAll(_ table: String, column: String, values: [String], on db: any SQLDatabase) async throws {
        guard try await count(from: table, where: Self.isIn(column, values), on: db) == values.count else {
            throw StorageError.notFound
        }
    }

    private static func roleConflict(_ role: Role) -> String {
        "A role named '\(role.name)' already exists"
    }

    static func role(_ row: any SQLRow) throws -> Role {
        Role(id: try row.value("id"), name: try row.value("name"), description: try row.value("description"))
    }
}
