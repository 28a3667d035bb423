import Foundation
import Testing
import WardenCore
import WardenWire

@testable import WardenStorage

@Suite("UserStore and RoleStore")
struct UserStoreTests {
    private static func userRecord(email: String? = nil, name: String? = nil) -> UserRecord {
        var user = User(
            userID: uniqueID("auth0|user"), email: email ?? "\(uniqueID("user"))@example.com", createdAt: storedTime())
        user.name = name ?? "Alice Example"
        user.givenName = "Alice"
        user.familyName = "Example"
        user.nickname = "alice"
        user.picture = "https://example.com/alice.png"
        user.emailVerified = true
        user.userMetadata = ["theme": "dark", "age": 42, "tags": ["a", "b"], "nested": ["deep": true]]
        user.appMetadata = ["plan": "gold"]
        user.lastLogin = storedTime(-60)
        user.loginsCount = 7
        return UserRecord(user: user, passwordHash: "$2b$12$hash")
    }

    @Test("Users: insert, read by id and e-mail, update, delete with roles", arguments: TestDatabase.available)
    func userLifecycle(database: TestDatabase) async throws {
        try await database.withStore { store in
            var record = Self.userRecord()
            let id = record.user.userID
            try await store.insertUser(record)
            #expect(try await store.user(id: id) == record)
            #expect(try await store.user(email: record.user.email!.uppercased()) == record)
            #expect(try await store.user(id: uniqueID("nobody")) == nil)

            record.user.name = nil
            record.user.blocked = true
            record.user.emailVerified = false
            record.user.userMetadata = [:]
            record.user.lastLogin = nil
            record.user.loginsCount = 8
            record.user.updatedAt = storedTime(10)
            record.passwordHash = nil
            try await store.updateUser(record)
            #expect(try await store.user(id: id) == record)
            await #expect(throws: StorageError.notFound) { try await store.updateUser(Self.userRecord()) }

            let role = Role(id: uniqueID("rol"), name: uniqueID("role"), description: "Admins")
            try await store.insertRole(role)
            try await store.assignRoles([role.id], toUser: id)
            #expect(try await store.deleteUser(id: id))
            #expect(try await store.user(id: id) == nil)
            #expect(try await store.deleteUser(id: id) == false)
            // The assignment went with the user: a new user with the same id has no roles.
            try await store.insertUser(record)
            #expect(try await store.roles(ofUser: id).isEmpty)
        }
    }

    @Test(
        "Users: e-mail addresses conflict ignoring case, and are stored lower-cased", arguments: TestDatabase.available)
    func emailConflicts(database: TestDatabase) async throws {
        try await database.withStore { store in
            let local = uniqueID("Alice")
            let alice = Self.userRecord(email: "\(local)@Example.COM")
            try await store.insertUser(alice)
            #expect(try await store.user(id: alice.user.userID)?.user.email == "\(local)@example.com".lowercased())
            #expect(try await store.user(email: "\(local)@EXAMPLE.com")?.user.userID == alice.user.userID)

            let twin = Self.userRecord(email: "\(local.uppercased())@example.com")
            await #expect(throws: StorageError.self) { try await store.insertUser(twin) }
            var sameID = Self.userRecord()
            sameID.user.userID = alice.user.userID
            await #expect(throws: StorageError.self) { try await store.insertUser(sameID) }

            var bob = Self.userRecord()
            try await store.insertUser(bob)
            bob.user.email = "\(local.lowercased())@EXAMPLE.COM"
            await #expect(throws: StorageError.self) { try await store.updateUser(bob) }

            let noEmail = [Self.userRecord(), Self.userRecord()].map {
                var record = $0
                record.user.email = nil
                return record
            }
            for record in noEmail { try await store.insertUser(record) }
        }
    }

    @Test("searchUsers runs the query in SQL, sorts, pages and counts", arguments: TestDatabase.available)
    func search(database: TestDatabase) async throws {
        try await database.withStore { store in
            let tag = UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
            let names = ["carol", "alice", "bob", "dave", "erin"]
            var users: [UserRecord] = []
            for (index, name) in names.enumerated() {
                var record = Self.userRecord(name: "\(tag) \(name)")
                record.user.appMetadata = ["team": index.isMultiple(of: 2) ? "red" : "blue"]
                record.user.loginsCount = index
                try await store.insertUser(record)
                users.append(record)
            }
            let byName = try UserQueryParser.parse("name:\(tag)*")
            let ascending = try await store.searchUsers(
                byName, sort: UserSort(field: .name, ascending: true), page: PageRequest(page: 0, perPage: 2))
            #expect(ascending.items.map { $0.user.name! } == ["\(tag) alice", "\(tag) bob"])
            #expect(ascending.total == 5)
            let last = try await store.searchUsers(
                byName, sort: UserSort(field: .name, ascending: true), page: PageRequest(page: 2, perPage: 2))
            #expect(last.items.map { $0.user.name! } == ["\(tag) erin"] && last.total == 5)
            let descending = try await store.searchUsers(
                byName, sort: UserSort(field: .loginsCount, ascending: false), page: PageRequest(page: 0, perPage: 10))
            #expect(descending.items.map(\.user.loginsCount) == [4, 3, 2, 1, 0])
            #expect(descending.items.first == users[4])

            let red = try await store.searchUsers(
                try UserQueryParser.parse("name:\(tag)* AND app_metadata.team:red"), sort: nil,
                page: PageRequest(page: 0, perPage: 10))
            #expect(Set(red.items.map(\.user.userID)) == Set([0, 2, 4].map { users[$0].user.userID }))
            #expect(red.total == 3)
            let one = try await store.searchUsers(
                try UserQueryParser.parse("email:\"\(users[1].user.email!.uppercased())\""), sort: nil,
                page: PageRequest(page: 0, perPage: 10))
            #expect(one.items == [users[1]] && one.total == 1)
            let none = try await store.searchUsers(
                try UserQueryParser.parse("name:\(tag)x*"), sort: nil, page: PageRequest(page: 0, perPage: 10))
            #expect(none.items.isEmpty && none.total == 0)
        }
    }

    @Test(
        "Roles: CRUD, permissions and assignments are idempotent, deletion cascades", arguments: TestDatabase.available)
    func roles(database: TestDatabase) async throws {
        try await database.withStore { store in
            var admin = Role(id: uniqueID("rol"), name: uniqueID("admin"), description: "Admins")
            let reader = Role(id: uniqueID("rol"), name: uniqueID("reader"), description: nil)
            try await store.insertRole(admin)
            try await store.insertRole(reader)
            #expect(try await store.role(id: admin.id) == admin)
            await #expect(throws: StorageError.self) {
                try await store.insertRole(Role(id: uniqueID("rol"), name: admin.name, description: nil))
            }
            admin.description = "Administrators"
            try await store.updateRole(admin)
            #expect(try await store.role(id: admin.id) == admin)
            var renamed = reader
            renamed.name = admin.name
            await #expect(throws: StorageError.self) { try await store.updateRole(renamed) }
            await #expect(throws: StorageError.notFound) {
                try await store.updateRole(Role(id: uniqueID("rol"), name: uniqueID("x"), description: nil))
            }
            let listed = try await store.roles(page: nil).items
            #expect(listed.contains(admin) && listed.contains(reader))

            let api = uniqueID("https://api")
            let read = Permission(resourceServerIdentifier: api, permissionName: "read:balance")
            let transfer = Permission(resourceServerIdentifier: api, permissionName: "transfer:funds")
            let elsewhere = Permission(
                resourceServerIdentifier: uniqueID("https://other"), permissionName: "read:balance")
            try await store.addPermissions([read, transfer, elsewhere], toRole: admin.id)
            try await store.addPermissions([read], toRole: admin.id)
            try await store.addPermissions([read], toRole: reader.id)
            #expect(Set(try await store.permissions(ofRole: admin.id)) == [read, transfer, elsewhere])
            await #expect(throws: StorageError.notFound) {
                try await store.addPermissions([read], toRole: uniqueID("rol"))
            }

            let user = Self.userRecord()
            try await store.insertUser(user)
            let userID = user.user.userID
            try await store.assignRoles([admin.id, reader.id], toUser: userID)
            try await store.assignRoles([admin.id], toUser: userID)
            #expect(Set(try await store.roles(ofUser: userID)) == [admin, reader])
            await #expect(throws: StorageError.notFound) {
                try await store.assignRoles([admin.id], toUser: uniqueID("nobody"))
            }
            await #expect(throws: StorageError.notFound) {
                try await store.assignRoles([uniqueID("rol")], toUser: userID)
            }
            #expect(
                try await store.permissionNames(ofUser: userID, resourceServer: api) == [
                    "read:balance", "transfer:funds",
                ])

            try await store.removePermissions([transfer, elsewhere], fromRole: admin.id)
            #expect(try await store.permissions(ofRole: admin.id) == [read])
            #expect(try await store.permissionNames(ofUser: userID, resourceServer: api) == ["read:balance"])
            try await store.removeRoles([reader.id], fromUser: userID)
            #expect(try await store.roles(ofUser: userID) == [admin])

            #expect(try await store.deleteRole(id: admin.id))
            #expect(try await store.role(id: admin.id) == nil)
            #expect(try await store.roles(ofUser: userID).isEmpty)
            #expect(try await store.permissions(ofRole: admin.id).isEmpty)
            #expect(try await store.permissionNames(ofUser: userID, resourceServer: api).isEmpty)
            #expect(try await store.deleteRole(id: admin.id) == false)
        }
    }
}
