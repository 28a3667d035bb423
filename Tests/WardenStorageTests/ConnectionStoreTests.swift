import Foundation
import Testing
import WardenCore
import WardenWire

@testable import WardenStorage

@Suite("ConnectionStore (SPEC §15)")
struct ConnectionStoreTests {
    static func connection(_ strategy: ConnectionStrategy = .oidc) -> Connection {
        let name = "c-" + UUID().uuidString.lowercased().prefix(12)
        var connection = Connection(id: uniqueID("con"), name: String(name), strategy: strategy)
        connection.options = ["client_id": "upstream-app", "client_secret": "s3cret", "issuer": "https://idp.test/"]
        connection.metadata = ["tier": "gold"]
        return connection
    }

    private static func client() -> ClientRecord {
        ClientRecord(
            client: Client(clientID: uniqueID("client"), name: "App"), secretHash: nil, createdAt: storedTime(),
            updatedAt: storedTime())
    }

    @Test("The migration makes the database connection, and every new client has it", arguments: TestDatabase.available)
    func databaseConnection(database: TestDatabase) async throws {
        try await database.withStore { store in
            let stored = try #require(try await store.connection(name: Connection.databaseName))
            #expect(stored == Connection.database)
            #expect(try await store.connection(id: Connection.databaseID) == Connection.database)
            let client = Self.client()
            try await store.insertClient(client)
            #expect(
                try await store.connections(enabledFor: client.client.clientID).map(\.id) == [Connection.databaseID])
            #expect(try await store.deleteClient(id: client.client.clientID))
            let remaining = try await store.enabledClients(
                connectionID: Connection.databaseID, after: nil, limit: .max)
            #expect(!remaining.contains(client.client.clientID), "a deleted client leaves the connection's list")
        }
    }

    @Test(
        "Insert, read by id and name, conflict on the name, update, delete then deleted again",
        arguments: TestDatabase.available)
    func lifecycle(database: TestDatabase) async throws {
        try await database.withStore { store in
            var connection = Self.connection()
            try await store.insertConnection(connection, enabledClients: [])
            #expect(try await store.connection(id: connection.id) == connection)
            #expect(try await store.connection(name: connection.name) == connection)
            var twin = Self.connection()
            twin.name = connection.name
            await #expect(throws: StorageError.self) { try await store.insertConnection(twin, enabledClients: []) }

            connection.displayName = "Acme"
            connection.options["scope"] = "openid email"
            try await store.updateConnection(connection)
            #expect(try await store.connection(id: connection.id) == connection)
            await #expect(throws: StorageError.notFound) { try await store.updateConnection(Self.connection()) }

            let at = storedTime()
            #expect(try await store.deleteConnection(id: connection.id, at: at) == .deleted)
            #expect(try await store.connection(id: connection.id) == nil)
            #expect(try await store.deleteConnection(id: connection.id, at: at) == .alreadyDeleted)
            #expect(try await store.deleteConnection(id: uniqueID("con"), at: at) == .notFound)
            try await store.insertConnection(twin, enabledClients: [])
            #expect(try await store.connection(name: connection.name) == twin, "a deleted connection's name is free")
        }
    }

    @Test("Enabled clients: set, unset, idempotent, paged by checkpoint", arguments: TestDatabase.available)
    func enabledClients(database: TestDatabase) async throws {
        try await database.withStore { store in
            let clients = [Self.client(), Self.client(), Self.client()]
            for client in clients { try await store.insertClient(client) }
            let ids = clients.map(\.client.clientID).sorted()
            let connection = Self.connection(.github)
            try await store.insertConnection(connection, enabledClients: [ids[0], ids[0]])
            try await store.setEnabledClients(
                connectionID: connection.id, [(ids[1], true), (ids[2], true), (ids[0], true)])
            #expect(try await store.enabledClients(connectionID: connection.id, after: nil, limit: 10) == ids)
            #expect(try await store.enabledClients(connectionID: connection.id, after: ids[0], limit: 1) == [ids[1]])
            try await store.setEnabledClients(connectionID: connection.id, [(ids[1], false)])
            #expect(
                try await store.enabledClients(connectionID: connection.id, after: nil, limit: 10) == [ids[0], ids[2]])
            let forClient = try await store.connections(enabledFor: ids[0]).map(\.id)
            #expect(Set(forClient) == [Connection.databaseID, connection.id])
            #expect(try await store.deleteConnection(id: connection.id, at: storedTime()) == .deleted)
            #expect(try await store.enabledClients(connectionID: connection.id, after: nil, limit: 10).isEmpty)
        }
    }

    @Test("Lists filter by strategy and name, by page and by checkpoint", arguments: TestDatabase.available)
    func lists(database: TestDatabase) async throws {
        try await database.withStore { store in
            let github = Self.connection(.github)
            let oidc = Self.connection(.oidc)
            try await store.insertConnection(github, enabledClients: [])
            try await store.insertConnection(oidc, enabledClients: [])
            let byStrategy = try await store.connections(strategies: [.github], name: nil, page: nil).items
            #expect(byStrategy.contains(github) && !byStrategy.contains(oidc))
            let both = try await store.connections(strategies: [.github, .oidc], name: nil, page: nil).items
            #expect(both.contains(github) && both.contains(oidc))
            #expect(try await store.connections(strategies: [], name: oidc.name, page: nil).items == [oidc])
            #expect(try await store.connections(strategies: [.github], name: oidc.name, page: nil).items.isEmpty)
            let byName = try await store.connections(strategies: [], name: github.name, after: nil, limit: 5)
            #expect(byName == [github])
            if database.isIsolated {
                let all = try await store.connections(strategies: [], name: nil, page: PageRequest(page: 0, perPage: 2))
                #expect(all.total == 3 && all.items.first == Connection.database)
                let ordered = [Connection.database, github, oidc].map(\.id).sorted()
                let first = try await store.connections(strategies: [], name: nil, after: nil, limit: 2).map(\.id)
                #expect(first == Array(ordered.prefix(2)))
                let rest = try await store.connections(strategies: [], name: nil, after: first.last, limit: 2)
                #expect(rest.map(\.id) == [ordered[2]])
            }
        }
    }
}

@Suite("Users of other connections and their identities (SPEC §15)")
struct UserIdentityStoreTests {
    private static func user(_ id: String, email: String?) -> UserRecord {
        var user = User(userID: id, email: email, createdAt: storedTime())
        user.name = "Jo"
        return UserRecord(user: user, passwordHash: nil)
    }

    @Test("An e-mail is unique among database users only", arguments: TestDatabase.available)
    func emailUniqueness(database: TestDatabase) async throws {
        try await database.withStore { store in
            let email = "\(uniqueID("jo"))@example.com"
            let databaseUser = Self.user("auth0|\(uniqueID("db"))", email: email)
            try await store.insertUser(databaseUser)
            await #expect(throws: StorageError.self) {
                try await store.insertUser(Self.user("auth0|\(uniqueID("db"))", email: email.uppercased()))
            }
            let connection = Connection(id: uniqueID("con"), name: uniqueID("gh"), strategy: .github)
            try await store.insertConnection(connection, enabledClients: [])
            let identity = UserIdentity(
                connectionID: connection.id,
                identity: FederatedIdentity(connection: connection.name, provider: .github, userID: .number(1_234_567)),
                profileData: ["login": "jo"])
            let federated = Self.user("github|\(uniqueID("1"))", email: email)
            try await store.insertUser(federated, identity: identity)
            #expect(try await store.user(email: email) == databaseUser, "sign-in by e-mail finds the database user")
            #expect(
                try await store.users(email: email).map(\.user.userID) == [
                    databaseUser.user.userID, federated.user.userID,
                ])
            #expect(try await store.user(connectionID: connection.id, identityUserID: "1234567") == federated)
            #expect(try await store.user(connectionID: connection.id, identityUserID: "7654321") == nil)
            await #expect(throws: StorageError.self) {
                try await store.insertUser(Self.user("github|\(uniqueID("2"))", email: nil), identity: identity)
            }
            #expect(try await store.user(id: federated.user.userID) == federated, "the refused insert left nothing")

            var changed = identity
            changed.profileData = ["login": "jo2"]
            try await store.updateIdentityProfile(changed)
            let stored = try await store.identities(ofUsers: [federated.user.userID, databaseUser.user.userID])
            #expect(stored[federated.user.userID] == [changed])
            #expect(stored[databaseUser.user.userID] == nil)
            #expect(try await store.deleteUser(id: federated.user.userID))
            #expect(try await store.user(connectionID: connection.id, identityUserID: "1234567") == nil)
        }
    }

    @Test(
        "Linking moves identities in one transaction; unlinking makes the identity a user again",
        arguments: TestDatabase.available)
    func linking(database: TestDatabase) async throws {
        try await database.withStore { store in
            let connection = ConnectionStoreTests.connection()
            try await store.insertConnection(connection, enabledClients: [])
            func identity(_ id: String) -> UserIdentity {
                UserIdentity(
                    connectionID: connection.id,
                    identity: FederatedIdentity(connection: connection.name, provider: .oidc, userID: .string(id)),
                    profileData: ["email": .string("\(id)@idp.test")], sealedTokens: "v1.sealed-\(id)")
            }
            let primary = Self.user("auth0|\(uniqueID("p"))", email: "p-\(uniqueID("e"))@example.com")
            try await store.insertUser(primary)
            let first = identity(uniqueID("a"))
            let secondary = Self.user(first.identity.wardenUserID, email: nil)
            try await store.insertUser(secondary, identity: first)

            // /u/link: a new identity joins an existing user; a second time (any user) is a conflict.
            let second = identity(uniqueID("b"))
            try await store.linkIdentity(second, to: primary.user.userID)
            await #expect(throws: StorageError.conflict("The identity belongs to a user already")) {
                try await store.linkIdentity(second, to: secondary.user.userID)
            }
            await #expect(throws: StorageError.notFound) {
                try await store.linkIdentity(identity(uniqueID("c")), to: "auth0|nobody")
            }

            // Management linking: the secondary's identities move, the secondary goes.
            try await store.mergeUser(secondary.user.userID, into: primary.user.userID)
            #expect(try await store.user(id: secondary.user.userID) == nil)
            #expect(try await store.identities(ofUsers: [primary.user.userID])[primary.user.userID] == [first, second])
            #expect(
                try await store.user(connectionID: connection.id, identityUserID: first.identity.userID.description)?
                    .user.userID == primary.user.userID)
            await #expect(throws: StorageError.notFound) {
                try await store.mergeUser(secondary.user.userID, into: primary.user.userID)
            }

            // Tokens are replaced in place.
            try await store.updateIdentityTokens(
                connectionID: connection.id, identityUserID: first.identity.userID.description, sealed: "v1.new")
            let tokens = try await store.identities(ofUsers: [primary.user.userID])[primary.user.userID]?
                .first { $0.identity == first.identity }?.sealedTokens
            #expect(tokens == "v1.new")

            // Unlinking: the identity leaves the primary for a user of its own, in one transaction.
            let unlinked = Self.user(first.identity.wardenUserID, email: "\(first.identity.userID)@idp.test")
            try await store.unlinkIdentity(
                connectionID: connection.id, identityUserID: first.identity.userID.description,
                from: primary.user.userID, into: unlinked)
            #expect(try await store.user(id: unlinked.user.userID) == unlinked)
            #expect(
                try await store.identities(ofUsers: [primary.user.userID])[primary.user.userID]?.map(\.identity) == [
                    second.identity
                ])
            await #expect(throws: StorageError.self) {
                try await store.unlinkIdentity(
                    connectionID: connection.id, identityUserID: first.identity.userID.description,
                    from: primary.user.userID, into: Self.user("oidc|other|\(uniqueID("x"))", email: nil))
            }
        }
    }
}
