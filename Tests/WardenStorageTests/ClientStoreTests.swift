import Foundation
import Testing
import WardenCore
import WardenWire

@testable import WardenStorage

@Suite("ClientStore, ResourceServerStore and ClientGrantStore")
struct ClientStoreTests {
    private static func clientRecord() -> ClientRecord {
        var client = Client(clientID: uniqueID("client"), name: "Test app")
        client.grantTypes = [.authorizationCode, .refreshToken]
        client.callbacks = ["https://app.example.com/callback"]
        client.clientMetadata = ["tier": "gold"]
        client.refreshToken = RefreshTokenConfiguration(rotationType: .rotating)
        return ClientRecord(client: client, secretHash: "sha256-hash", createdAt: storedTime(), updatedAt: storedTime())
    }

    @Test("Clients: insert, read, conflict, update, delete with grants", arguments: TestDatabase.available)
    func clientLifecycle(database: TestDatabase) async throws {
        try await database.withStore { store in
            var record = Self.clientRecord()
            let id = record.client.clientID
            try await store.insertClient(record)
            #expect(try await store.client(id: id) == record)
            await #expect(throws: StorageError.self) { try await store.insertClient(record) }
            #expect(try await store.clients(page: nil).items.contains(record))

            record.client.name = "Renamed"
            record.secretHash = nil
            record.updatedAt = storedTime(5)
            try await store.updateClient(record)
            #expect(try await store.client(id: id) == record)
            var missing = Self.clientRecord()
            missing.client.clientID = uniqueID("missing")
            await #expect(throws: StorageError.notFound) { try await store.updateClient(missing) }

            let grant = ClientGrant(
                id: uniqueID("cgr"), clientID: id, audience: uniqueID("https://api"), scope: ["read"])
            try await store.insertClientGrant(grant)
            #expect(try await store.deleteClient(id: id))
            #expect(try await store.client(id: id) == nil)
            #expect(try await store.clientGrant(id: grant.id) == nil, "the client's grants go with it")
            #expect(try await store.deleteClient(id: id) == false)
        }
    }

    @Test("Clients: pages in creation order with the total", arguments: TestDatabase.available)
    func clientPages(database: TestDatabase) async throws {
        try await database.withStore { store in
            var records: [ClientRecord] = []
            for offset in 0..<3 {
                var record = Self.clientRecord()
                record.createdAt = storedTime(Double(offset))
                records.append(record)
                try await store.insertClient(record)
            }
            let first = try await store.clients(page: PageRequest(page: 0, perPage: 2))
            #expect(first.items.count == 2)
            guard database.isIsolated else { return }
            #expect(first.items == Array(records[0..<2]))
            #expect(first.total == 3)
            let second = try await store.clients(page: PageRequest(page: 1, perPage: 2))
            #expect(second.items == [records[2]] && second.total == 3)
            let past = try await store.clients(page: PageRequest(page: 5, perPage: 2))
            #expect(past.items.isEmpty && past.total == 3)
        }
    }

    @Test(
        "APIs: by id or identifier, conflicts, update, delete with grants and permissions",
        arguments: TestDatabase.available)
    func resourceServerLifecycle(database: TestDatabase) async throws {
        try await database.withStore { store in
            var api = ResourceServer(id: uniqueID("rs"), identifier: uniqueID("https://api.example.com"), name: "API")
            api.scopes = [.init(value: "read:balance", description: "Read"), .init(value: "transfer:funds")]
            api.authorizationDetails = [.init(type: "money_transfer")]
            api.enforcePolicies = true
            try await store.insertResourceServer(api)
            #expect(try await store.resourceServer(idOrIdentifier: api.id) == api)
            #expect(try await store.resourceServer(idOrIdentifier: api.identifier) == api)
            #expect(try await store.resourceServer(idOrIdentifier: uniqueID("nope")) == nil)
            #expect(try await store.resourceServers(page: nil).items.contains(api))

            var clash = ResourceServer(id: uniqueID("rs"), identifier: api.identifier, name: "Clash")
            await #expect(throws: StorageError.self) { try await store.insertResourceServer(clash) }
            clash.identifier = uniqueID("https://other")
            try await store.insertResourceServer(clash)
            clash.identifier = api.identifier
            await #expect(throws: StorageError.self) { try await store.updateResourceServer(clash) }
            await #expect(throws: StorageError.notFound) {
                try await store.updateResourceServer(
                    ResourceServer(id: uniqueID("rs"), identifier: uniqueID("x"), name: "x"))
            }

            api.tokenLifetime = 600
            api.signingAlg = .es256
            try await store.updateResourceServer(api)
            #expect(try await store.resourceServer(idOrIdentifier: api.id) == api)

            let grant = ClientGrant(
                id: uniqueID("cgr"), clientID: uniqueID("client"), audience: api.identifier, scope: [])
            try await store.insertClientGrant(grant)
            let role = Role(id: uniqueID("rol"), name: uniqueID("role"), description: nil)
            try await store.insertRole(role)
            let permission = Permission(resourceServerIdentifier: api.identifier, permissionName: "read:balance")
            try await store.addPermissions([permission], toRole: role.id)

            #expect(try await store.deleteResourceServer(id: api.id))
            #expect(try await store.resourceServer(idOrIdentifier: api.id) == nil)
            #expect(try await store.clientGrant(id: grant.id) == nil)
            #expect(try await store.permissions(ofRole: role.id).isEmpty)
            #expect(try await store.deleteResourceServer(id: api.id) == false)
        }
    }

    @Test("Client grants: (client, audience) unique, filters, pages, update, delete", arguments: TestDatabase.available)
    func clientGrants(database: TestDatabase) async throws {
        try await database.withStore { store in
            let clientID = uniqueID("client")
            let audiences = (0..<3).map { _ in uniqueID("https://api") }
            var grants: [ClientGrant] = []
            for audience in audiences {
                let grant = ClientGrant(
                    id: uniqueID("cgr"), clientID: clientID, audience: audience, scope: ["read", "write"])
                try await store.insertClientGrant(grant)
                grants.append(grant)
            }
            #expect(try await store.clientGrant(id: grants[0].id) == grants[0])
            await #expect(throws: StorageError.self) {
                try await store.insertClientGrant(
                    ClientGrant(id: uniqueID("cgr"), clientID: clientID, audience: audiences[0], scope: []))
            }

            let all = try await store.clientGrants(clientID: clientID, audience: nil, page: nil)
            #expect(Set(all.items.map(\.id)) == Set(grants.map(\.id)) && all.total == 3)
            let byBoth = try await store.clientGrants(clientID: clientID, audience: audiences[1], page: nil)
            #expect(byBoth.items == [grants[1]])
            let byAudience = try await store.clientGrants(clientID: nil, audience: audiences[2], page: nil)
            #expect(byAudience.items == [grants[2]])
            let page = try await store.clientGrants(
                clientID: clientID, audience: nil, page: PageRequest(page: 1, perPage: 2))
            #expect(page.items.count == 1 && page.total == 3)
            let past = try await store.clientGrants(
                clientID: clientID, audience: nil, page: PageRequest(page: 3, perPage: 2))
            #expect(past.items.isEmpty && past.total == 3)

            var updated = grants[0]
            updated.scope = ["admin"]
            try await store.updateClientGrant(updated)
            #expect(try await store.clientGrant(id: updated.id) == updated)
            updated.audience = audiences[1]
            await #expect(throws: StorageError.self) { try await store.updateClientGrant(updated) }
            await #expect(throws: StorageError.notFound) {
                try await store.updateClientGrant(
                    ClientGrant(id: uniqueID("cgr"), clientID: "c", audience: "a", scope: []))
            }
            #expect(try await store.deleteClientGrant(id: grants[0].id))
            #expect(try await store.deleteClientGrant(id: grants[0].id) == false)
        }
    }
}
