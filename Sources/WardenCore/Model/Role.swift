/// A role: a named set of API permissions assigned to users (SPEC §9, RBAC).
public struct Role: Codable, Sendable, Hashable {
    public var id: String
    public var name: String
    public var description: String?

    public init(id: String, name: String, description: String?) {
        self.id = id
        self.name = name
        self.description = description
    }
}

/// One API permission of a role.
public struct Permission: Codable, Sendable, Hashable {
    public var resourceServerIdentifier: String
    public var permissionName: String

    enum CodingKeys: String, CodingKey {
        case resourceServerIdentifier = "resource_server_identifier"
        case permissionName = "permission_name"
    }

    public init(resourceServerIdentifier: String, permissionName: String) {
        self.resourceServerIdentifier = resourceServerIdentifier
        self.permissionName = permissionName
    }
}
