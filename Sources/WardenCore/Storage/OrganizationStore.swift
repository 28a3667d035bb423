public import struct Foundation.Date

/// What a login reads of organizations (SPEC §19): the store itself, or a node's cache of it (`TenantCache`).
public protocol OrganizationDirectory: Sendable {
    func organization(id: String) async throws -> Organization?
    func organization(name: String) async throws -> Organization?
    /// The organization's enabled connections, in the order they were enabled.
    func organizationConnections(organizationID: String) async throws -> [OrganizationConnection]
}

/// Organizations, their enabled connections, members, members' roles and invitations (SPEC §19).
public protocol OrganizationStore: OrganizationDirectory {
    /// Stores a new organization; ``StorageError/conflict(_:)`` when its name is taken.
    func insertOrganization(_ organization: Organization) async throws
    /// Organizations by name, paged.
    func organizations(page: PageRequest?) async throws -> PageResult<Organization>
    /// Checkpoint paging: up to `limit` organizations whose id follows `after`, by id.
    func organizations(after id: String?, limit: Int) async throws -> [Organization]
    /// ``StorageError/notFound`` or ``StorageError/conflict(_:)`` (the name is another's).
    func updateOrganization(_ organization: Organization) async throws
    /// Deletes the organization with its connections, memberships, members' roles and invitations.
    func deleteOrganization(id: String) async throws -> Bool

    /// Enables a connection; ``StorageError/conflict(_:)`` when it is enabled already.
    func insertOrganizationConnection(_ connection: OrganizationConnection) async throws
    /// ``StorageError/notFound`` when the connection is not enabled.
    func updateOrganizationConnection(_ connection: OrganizationConnection) async throws
    func deleteOrganizationConnection(organizationID: String, connectionID: String) async throws -> Bool

    /// Adds members (idempotent); ``StorageError/notFound`` when a user does not exist.
    func addOrganizationMembers(_ userIDs: [String], organizationID: String, at date: Date) async throws
    /// Removes members and their roles in the organization.
    func removeOrganizationMembers(_ userIDs: [String], organizationID: String) async throws
    /// Member user ids by user id, paged.
    func organizationMembers(organizationID: String, page: PageRequest) async throws -> PageResult<String>
    /// Checkpoint paging: up to `limit` member user ids after `after`, by user id.
    func organizationMembers(organizationID: String, after userID: String?, limit: Int) async throws -> [String]
    func isOrganizationMember(userID: String, organizationID: String) async throws -> Bool
    /// The organizations `userID` is a member of, by name, paged.
    func organizations(ofUser userID: String, page: PageRequest?) async throws -> PageResult<Organization>

    /// Assigns roles to a member (idempotent); ``StorageError/notFound`` when a role does not exist or the user
    /// is not a member.
    func assignOrganizationRoles(_ roleIDs: [String], userID: String, organizationID: String) async throws
    func removeOrganizationRoles(_ roleIDs: [String], userID: String, organizationID: String) async throws
    /// The member's roles in the organization, by name.
    func organizationRoles(userID: String, organizationID: String) async throws -> [Role]
    /// The permissions on the API `resourceServer` that the member's roles in the organization hold (SPEC §19 RBAC).
    func organizationPermissionNames(ofUser userID: String, organizationID: String, resourceServer: String)
        async throws -> Set<String>

    func insertOrganizationInvitation(_ invitation: OrganizationInvitation) async throws
    func organizationInvitation(id: String, organizationID: String) async throws -> OrganizationInvitation?
    /// The organization's invitations, newest first, paged.
    func organizationInvitations(organizationID: String, page: PageRequest) async throws
        -> PageResult<OrganizationInvitation>
    func deleteOrganizationInvitation(id: String, organizationID: String) async throws -> Bool
    /// The invitation whose ticket hashes to `ticketHash`, without consuming it.
    func organizationInvitation(ticketHash: String) async throws -> OrganizationInvitation?
    /// Deletes and returns the invitation whose ticket hashes to `ticketHash` while it has not expired at `now`:
    /// one conditional delete, so of two concurrent acceptances one wins (SPEC §19 "single use").
    func consumeOrganizationInvitation(ticketHash: String, now: Date) async throws -> OrganizationInvitation?
}
