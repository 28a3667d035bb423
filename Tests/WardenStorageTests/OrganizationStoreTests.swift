import Foundation
import Testing
import WardenCore
import WardenWire

@testable import WardenStorage

/// ``OrganizationStore`` (SPEC §19) on SQLite and PostgreSQL: unique names, both pagings, enabled connections,
/// members and their roles, what a delete takes with it, and invitations consumed once.
@Suite("OrganizationStore: organizations, members, roles and invitations")
struct OrganizationStoreTests {
    static func organization(_ prefix: String = "acme") -> Organization {
        Organization(
            id: uniqueID("org"), name: uniqueID(prefix).lowercased().replacingOccurrences(of: "|", with: "-"),
            displayName: "Acme Corp",
            branding: .init(logoURL: "https://acme.example/logo.png", colors: .init(primary: "#112233")),
            metadata: ["tier": "gold"])
    }

    static func user(_ store: SQLStore) async throws -> String {
        let user = User(userID: uniqueID("auth0|member"), email: nil, createdAt: storedTime())
        try await store.insertUser(UserRecord(user: user, passwordHash: nil))
        return user.userID
    }

    static func invitation(organizationID: String, expiresAt: Date) -> OrganizationInvitation {
        OrganizationInvitation(
            id: uniqueID("uinv"), organizationID: organizationID, inviterName: "Ada",
            inviteeEmail: "\(uniqueID("invitee"))@example.com", clientID: "client", connectionID: nil,
            roles: ["rol_1"], appMetadata: ["plan": "pro"], userMetadata: nil,
            ticketHash: SecretHash.sha256Hex(RandomToken.make()), sealedTicket: nil, createdAt: storedTime(),
            expiresAt: expiresAt)
    }

    @Test("stored, found by id and by name, renamed, names unique", arguments: TestDatabase.available)
    func roundTrip(database: TestDatabase) async throws {
        try await database.withStore { (store: SQLStore) async throws in
            var organization = Self.organization()
            try await store.insertOrganization(organization)
            #expect(try await store.organization(id: organization.id) == organization)
            #expect(try await store.organization(name: organization.name) == organization)
            var twin = Self.organization()
            twin.name = organization.name
            await #expect(throws: StorageError.self) { try await store.insertOrganization(twin) }
            twin.name += "-2"
            try await store.insertOrganization(twin)
            twin.name = organization.name
            await #expect(throws: StorageError.self) { try await store.updateOrganization(twin) }
            organization.displayName = nil
            organization.name += "-renamed"
            try await store.updateOrganization(organization)
            #expect(try await store.organization(name: organization.name) == organization)
            var unknown = Self.organization()
            unknown.id = uniqueID("org")
            await #expect(throws: StorageError.notFound) { try await store.updateOrganization(unknown) }
        }
    }

    @Test("checkpoint paging walks every organization once, by id", arguments: TestDatabase.available)
    func checkpointPaging(database: TestDatabase) async throws {
        try await database.withStore { (store: SQLStore) async throws in
            var made: Set<String> = []
            for _ in 0..<5 {
                let organization = Self.organization("page")
                try await store.insertOrganization(organization)
                made.insert(organization.id)
            }
            var seen: [String] = []
            var after: String?
            while true {
                let page = try await store.organizations(after: after, limit: 2)
                seen += page.map(\.id)
                guard page.count == 2, let last = page.last else { break }
                after = last.id
            }
            #expect(seen == seen.sorted() && Set(seen).count == seen.count)
            #expect(made.isSubset(of: Set(seen)))
        }
    }

    @Test("members, their roles, their organizations; a delete takes it all", arguments: TestDatabase.available)
    func membersAndRoles(database: TestDatabase) async throws {
        try await database.withStore { (store: SQLStore) async throws in
            let organization = Self.organization()
            try await store.insertOrganization(organization)
            let (alice, bob) = (try await Self.user(store), try await Self.user(store))
            try await store.addOrganizationMembers(
                [alice, bob, alice], organizationID: organization.id, at: storedTime())
            try await store.addOrganizationMembers([alice], organizationID: organization.id, at: storedTime())
            await #expect(throws: StorageError.notFound) {
                try await store.addOrganizationMembers(
                    [uniqueID("auth0|ghost")], organizationID: organization.id, at: storedTime())
            }
            let members = try await store.organizationMembers(
                organizationID: organization.id, page: PageRequest(page: 0, perPage: 10))
            #expect(members.items == [alice, bob].sorted() && members.total == 2)
            #expect(
                try await store.organizationMembers(organizationID: organization.id, after: nil, limit: 1).count == 1)
            #expect(try await store.isOrganizationMember(userID: alice, organizationID: organization.id))
            #expect(try await store.organizations(ofUser: alice, page: nil).items == [organization])

            let role = Role(id: uniqueID("rol"), name: uniqueID("Approver"), description: nil)
            try await store.insertRole(role)
            try await store.assignOrganizationRoles([role.id, role.id], userID: alice, organizationID: organization.id)
            #expect(try await store.organizationRoles(userID: alice, organizationID: organization.id) == [role])
            #expect(try await store.roles(ofUser: alice).isEmpty, "organization roles are not tenant roles")
            let api = "https://\(uniqueID("api")).test/"
            try await store.addPermissions(
                [Permission(resourceServerIdentifier: api, permissionName: "read:reports")], toRole: role.id)
            #expect(
                try await store.organizationPermissionNames(
                    ofUser: alice, organizationID: organization.id, resourceServer: api) == ["read:reports"])
            #expect(try await store.permissionNames(ofUser: alice, resourceServer: api).isEmpty)
            #expect(
                try await store.organizationPermissionNames(
                    ofUser: alice, organizationID: organization.id, resourceServer: api + "other"
                ).isEmpty)
            await #expect(throws: StorageError.notFound) {
                try await store.assignOrganizationRoles(
                    [uniqueID("rol")], userID: alice, organizationID: organization.id)
            }
            let outsider = try await Self.user(store)
            await #expect(throws: StorageError.notFound) {
                try await store.assignOrganizationRoles([role.id], userID: outsider, organizationID: organization.id)
            }
            try await store.removeOrganizationMembers([bob], organizationID: organization.id)
            #expect(!(try await store.isOrganizationMember(userID: bob, organizationID: organization.id)))

            let connection = OrganizationConnection(
                organizationID: organization.id, connectionID: "con_x", assignMembershipOnLogin: true,
                showAsButton: false)
            try await store.insertOrganizationConnection(connection)
            await #expect(throws: StorageError.self) { try await store.insertOrganizationConnection(connection) }
            var changed = connection
            changed.showAsButton = true
            try await store.updateOrganizationConnection(changed)
            #expect(try await store.organizationConnections(organizationID: organization.id) == [changed])

            #expect(try await store.deleteOrganization(id: organization.id))
            #expect(!(try await store.deleteOrganization(id: organization.id)))
            #expect(try await store.organizations(ofUser: alice, page: nil).items.isEmpty)
            #expect(try await store.organizationRoles(userID: alice, organizationID: organization.id).isEmpty)
            #expect(try await store.organizationConnections(organizationID: organization.id).isEmpty)
        }
    }

    @Test("an invitation is consumed once, never after it expires", arguments: TestDatabase.available)
    func invitations(database: TestDatabase) async throws {
        try await database.withStore { (store: SQLStore) async throws in
            let organization = Self.organization()
            try await store.insertOrganization(organization)
            let live = Self.invitation(organizationID: organization.id, expiresAt: storedTime(3600))
            let expired = Self.invitation(organizationID: organization.id, expiresAt: storedTime(-1))
            try await store.insertOrganizationInvitation(live)
            try await store.insertOrganizationInvitation(expired)
            #expect(try await store.organizationInvitation(id: live.id, organizationID: organization.id) == live)
            #expect(try await store.organizationInvitation(id: live.id, organizationID: "org_other") == nil)
            let listed = try await store.organizationInvitations(
                organizationID: organization.id, page: PageRequest(page: 0, perPage: 10))
            #expect(Set(listed.items) == [live, expired])
            #expect(
                try await store.consumeOrganizationInvitation(ticketHash: expired.ticketHash, now: storedTime()) == nil)
            let results = try await withThrowingTaskGroup(of: OrganizationInvitation?.self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        try await store.consumeOrganizationInvitation(ticketHash: live.ticketHash, now: storedTime())
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(results.compactMap { $0 } == [live], "exactly one acceptance wins")
            #expect(try await store.deleteOrganizationInvitation(id: expired.id, organizationID: organization.id))
        }
    }
}
