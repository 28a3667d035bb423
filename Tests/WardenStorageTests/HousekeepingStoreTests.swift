import Foundation
import SQLKit
import Testing
import WardenCore
import WardenWire

@testable import WardenStorage

/// `purgeBatch`: bounded purges of ended records (SPEC §11, ARCHITECTURE housekeeping). The records of these
/// tests end in 1970, so that on the shared PostgreSQL database no other test's rows are in the way.
@Suite("HousekeepingStore: bounded purges")
struct HousekeepingStoreTests {
    private static func at(_ seconds: Double) -> Date { Date(timeIntervalSince1970: seconds) }

    @Test("artefacts: at most `limit` per call, only the ended ones", arguments: TestDatabase.available)
    func artefacts(database: TestDatabase) async throws {
        try await database.withStore { store in
            let kind = uniqueID("kind")
            let ended = (0..<7).map { _ in uniqueID("ended") }
            let live = (0..<2).map { _ in uniqueID("live") }
            for (index, hash) in ended.enumerated() {
                try await store.putArtefact(
                    kind: kind, hash: hash, payload: "p", expiresAt: Self.at(1000 + Double(index)))
            }
            for hash in live {
                try await store.putArtefact(kind: kind, hash: hash, payload: "p", expiresAt: Self.at(5000))
            }

            var deleted: [Int] = []
            for _ in 0..<3 {
                deleted.append(try await store.purgeBatch(.artefacts, endedBefore: Self.at(2000), limit: 5))
            }
            if database == .postgres {
                // The PostgreSQL database is shared with tests running at the same time, whose own purges may
                // take some of these rows (and ours theirs): only the bound holds exactly there.
                #expect(deleted.allSatisfy { $0 <= 5 }, "\(deleted)")
            } else {
                #expect(deleted == [5, 2, 0])
            }
            for hash in ended { #expect(try await store.peekArtefact(kind: kind, hash: hash, now: Self.at(0)) == nil) }
            for hash in live { #expect(try await store.peekArtefact(kind: kind, hash: hash, now: Self.at(0)) == "p") }
        }
    }

    @Test("login failures and locks: every key's, unknown addresses included", arguments: TestDatabase.available)
    func loginRows(database: TestDatabase) async throws {
        try await database.withStore { store in
            let unknown = "email|" + uniqueID("hash")
            let user = uniqueID("auth0|user")
            for second in 0..<3 {
                for key in [unknown, user] {
                    _ = try await store.reserveLoginAttempt(
                        userID: key, at: Self.at(1000 + Double(second)), windowStart: Self.at(0), limit: 10)
                }
            }
            _ = try await store.reserveLoginAttempt(userID: user, at: Self.at(3000), windowStart: Self.at(0), limit: 10)
            try await store.lockLogin(userID: unknown, until: Self.at(1500))
            try await store.lockLogin(userID: user, until: Self.at(4000))

            #expect(try await store.purgeBatch(.loginFailures, endedBefore: Self.at(2000), limit: 100) == 6)
            #expect(try await store.purgeBatch(.loginLocks, endedBefore: Self.at(2000), limit: 100) == 1)
            let failures = { (key: String) in
                try await store.count(from: "login_failures", where: SQLStore.equals("user_id", key))
            }
            #expect(try await failures(unknown) == 0)
            #expect(try await failures(user) == 1, "the one inside the window stays")
            #expect(try await store.loginLockedUntil(userID: user, now: Self.at(3500)) == Self.at(4000))
            #expect(try await store.count(from: "login_locks", where: SQLStore.equals("user_id", unknown)) == 0)
        }
    }

    @Test(
        "registered clients: the expired ones go with their grants; a token moves the expiry forward only",
        arguments: TestDatabase.available)
    func registeredClients(database: TestDatabase) async throws {
        try await database.withStore { store in
            func insert(_ id: String, expiresAt: Date?) async throws {
                try await store.insertClient(
                    ClientRecord(
                        client: Client(clientID: id, name: id), secretHash: nil, createdAt: Self.at(0),
                        updatedAt: Self.at(0), expiresAt: expiresAt))
            }
            let expired = uniqueID("expired"), extended = uniqueID("extended"), operatorMade = uniqueID("operator")
            try await insert(expired, expiresAt: Self.at(1000))
            try await insert(extended, expiresAt: Self.at(1100))
            try await insert(operatorMade, expiresAt: nil)
            try await store.insertClientGrant(
                ClientGrant(id: uniqueID("cgr"), clientID: expired, audience: "https://api.example/", scope: []))

            try await store.extendClientExpiry(id: extended, to: Self.at(5000))
            try await store.extendClientExpiry(id: extended, to: Self.at(3000))  // never backwards
            try await store.extendClientExpiry(id: operatorMade, to: Self.at(5000))  // an operator's client has none
            #expect(try await store.client(id: extended)?.expiresAt == Self.at(5000))
            #expect(try await store.client(id: operatorMade)?.expiresAt == nil)

            let deleted = try await store.purgeBatch(.registeredClients, endedBefore: Self.at(2000), limit: 100)
            #expect(database == .postgres ? deleted <= 100 : deleted == 1)
            #expect(try await store.client(id: expired) == nil)
            #expect(try await store.clientGrants(clientID: expired, audience: nil, page: nil).items.isEmpty)
            #expect(try await store.client(id: extended) != nil)
            #expect(try await store.client(id: operatorMade) != nil)
        }
    }

    @Test(
        "log events: a month of them goes in batches of `limit`, the recent ones stay",
        arguments: TestDatabase.available)
    func logs(database: TestDatabase) async throws {
        try await database.withIsolatedStore { store in
            let old = (0..<2_500).map { index in
                LogEvent(date: Self.at(1000 + Double(index)), type: .loginSuccess, description: "old \(index)")
            }
            let recent = LogEvent(date: Self.at(5000), type: .loginSuccess, description: "recent")
            try await store.appendLogs(old + [recent])
            var deleted: [Int] = []
            for _ in 0..<4 {
                deleted.append(try await store.purgeBatch(.logs, endedBefore: Self.at(4000), limit: 1000))
            }
            #expect(deleted == [1000, 1000, 500, 0])
            #expect(try await store.log(id: recent.logID) == recent)
            #expect(try await store.count(from: "logs") == 1)
        }
    }

    @Test("sessions: either end passed, in batches", arguments: TestDatabase.available)
    func sessions(database: TestDatabase) async throws {
        try await database.withIsolatedStore { store in
            for index in 0..<5 {
                let ended = Self.at(1000 + Double(index))
                let session = Session(
                    id: uniqueID("ses"), userID: "auth0|u", createdAt: Self.at(0), authTime: Self.at(0),
                    lastActiveAt: Self.at(0), expiresAt: index.isMultiple(of: 2) ? ended : Self.at(9000),
                    idleExpiresAt: index.isMultiple(of: 2) ? Self.at(9000) : ended, method: "pwd", sourceFamilyID: nil)
                try await store.insertSession(session, secretHash: uniqueID("secret"))
            }
            #expect(try await store.purgeBatch(.sessions, endedBefore: Self.at(2000), limit: 3) == 3)
            #expect(try await store.purgeBatch(.sessions, endedBefore: Self.at(2000), limit: 3) == 2)
            #expect(try await store.count(from: "sessions") == 0)
        }
    }
}
