import Foundation
import Testing
import WardenCore
import WardenWire

@testable import WardenStorage

/// ``WebAuthnCredentialStore`` (SPEC §17) on SQLite and PostgreSQL: credential IDs unique across users, the limit
/// per user, a passkey sign-up stored all or nothing, and the sign count recorded by compare-and-set.
@Suite("WebAuthnCredentialStore: passkeys and security keys")
struct WebAuthnCredentialStoreTests {
    static func credential(userID: String, kind: WebAuthnCredential.Kind = .passkey, id: [UInt8]? = nil)
        -> WebAuthnCredential
    {
        var credential = WebAuthnCredential(
            id: uniqueID("dev"), userID: userID, kind: kind, credentialID: id ?? RandomToken.bytes(32),
            publicKey: RandomToken.bytes(77), signCount: 0, aaguid: UUID(), relyingPartyID: "login.example.com",
            createdAt: storedTime())
        credential.transports = ["internal", "hybrid"]
        credential.backupEligible = true
        credential.backedUp = true
        credential.name = "Synced passkey on iPhone"
        credential.userAgent = "Example/1.0"
        return credential
    }

    static func user(email: String? = nil) -> UserRecord {
        UserRecord(
            user: User(
                userID: uniqueID("auth0|passkey"), email: email ?? "\(uniqueID("passkey"))@example.com",
                createdAt: storedTime()),
            passwordHash: nil)
    }

    @Test("stored and read back by credential ID and by user, every field", arguments: TestDatabase.available)
    func roundTrip(database: TestDatabase) async throws {
        try await database.withStore { (store: SQLStore) async throws in
            let first = Self.credential(userID: uniqueID("auth0|u"))
            #expect(try await store.insertWebAuthnCredential(first, limit: 20) == .inserted)
            #expect(try await store.webAuthnCredential(credentialID: first.credentialID) == first)
            var second = Self.credential(userID: first.userID, kind: .roaming)
            second.createdAt = storedTime(1)
            second.lastAuthAt = storedTime(2)
            #expect(try await store.insertWebAuthnCredential(second, limit: 20) == .inserted)
            #expect(try await store.webAuthnCredentials(userID: first.userID) == [first, second])
            #expect(try await store.webAuthnCredential(credentialID: RandomToken.bytes(32)) == nil)
        }
    }

    @Test(
        "a credential ID is unique across users; the limit counts one kind of one user",
        arguments: TestDatabase.available)
    func uniquenessAndLimit(database: TestDatabase) async throws {
        try await database.withStore { (store: SQLStore) async throws in
            let userID = uniqueID("auth0|u")
            let first = Self.credential(userID: userID)
            #expect(try await store.insertWebAuthnCredential(first, limit: 2) == .inserted)
            let stolen = Self.credential(userID: uniqueID("auth0|other"), id: first.credentialID)
            #expect(try await store.insertWebAuthnCredential(stolen, limit: 2) == .duplicateCredential)
            #expect(try await store.insertWebAuthnCredential(Self.credential(userID: userID), limit: 2) == .inserted)
            #expect(
                try await store.insertWebAuthnCredential(Self.credential(userID: userID), limit: 2) == .limitReached)
            #expect(
                try await store.insertWebAuthnCredential(Self.credential(userID: userID, kind: .roaming), limit: 2)
                    == .inserted)
            #expect(try await store.webAuthnCredentials(userID: stolen.userID).isEmpty)
        }
    }

    @Test("two nodes registering one credential ID at once store it once", arguments: TestDatabase.available)
    func concurrentRegistrations(database: TestDatabase) async throws {
        try await database.withNodes { nodes in
            let id = RandomToken.bytes(32)
            let results = try await withThrowingTaskGroup(of: WebAuthnCredentialInsert.self) { group in
                for index in 0..<8 {
                    let node = nodes[index % nodes.count]
                    group.addTask {
                        try await node.insertWebAuthnCredential(
                            Self.credential(userID: uniqueID("auth0|racer"), id: id), limit: 20)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(results.filter { $0 == .inserted }.count == 1)
            #expect(results.filter { $0 == .duplicateCredential }.count == 7)
        }
    }

    @Test("a passkey sign-up stores the user and the credential, or neither", arguments: TestDatabase.available)
    func signUp(database: TestDatabase) async throws {
        try await database.withStore { (store: SQLStore) async throws in
            let record = Self.user()
            let credential = Self.credential(userID: record.user.userID)
            #expect(try await store.insertUser(record, credential: credential) == .inserted)
            #expect(try await store.user(id: record.user.userID) != nil)
            #expect(try await store.webAuthnCredentials(userID: record.user.userID) == [credential])

            let second = Self.user()
            let reused = Self.credential(userID: second.user.userID, id: credential.credentialID)
            #expect(try await store.insertUser(second, credential: reused) == .duplicateCredential)
            #expect(try await store.user(id: second.user.userID) == nil, "no user without its credential")

            let sameEmail = Self.user(email: record.user.email)
            let fresh = Self.credential(userID: sameEmail.user.userID)
            await #expect(throws: StorageError.self) { try await store.insertUser(sameEmail, credential: fresh) }
            #expect(try await store.webAuthnCredential(credentialID: fresh.credentialID) == nil)

            #expect(try await store.deleteUser(id: record.user.userID))
            #expect(try await store.webAuthnCredentials(userID: record.user.userID).isEmpty, "deleted with the user")
        }
    }

    @Test("an assertion is recorded only over the counter it was checked against", arguments: TestDatabase.available)
    func signCountCompareAndSet(database: TestDatabase) async throws {
        try await database.withNodes { nodes in
            let credential = Self.credential(userID: uniqueID("auth0|u"))
            #expect(try await nodes[0].insertWebAuthnCredential(credential, limit: 20) == .inserted)
            let at = storedTime(5)
            let recorded = try await withThrowingTaskGroup(of: Bool.self) { group in
                for index in 0..<6 {
                    let node = nodes[index % nodes.count]
                    group.addTask {
                        try await node.recordWebAuthnAssertion(
                            id: credential.id, expectedSignCount: 0, signCount: 1, backupEligible: true,
                            backedUp: false, at: at)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(recorded.filter { $0 }.count == 1)
            let stored = try #require(try await nodes[0].webAuthnCredential(credentialID: credential.credentialID))
            #expect(stored.signCount == 1 && stored.backedUp == false && stored.lastAuthAt == at)
        }
    }

    @Test("renamed and deleted only by their owner", arguments: TestDatabase.available)
    func renameAndDelete(database: TestDatabase) async throws {
        try await database.withStore { (store: SQLStore) async throws in
            let credential = Self.credential(userID: uniqueID("auth0|u"))
            #expect(try await store.insertWebAuthnCredential(credential, limit: 20) == .inserted)
            #expect(try await !store.renameWebAuthnCredential(id: credential.id, userID: "auth0|else", name: "x"))
            #expect(try await store.renameWebAuthnCredential(id: credential.id, userID: credential.userID, name: "Key"))
            #expect(try await store.webAuthnCredentials(userID: credential.userID).map(\.name) == ["Key"])
            #expect(try await !store.deleteWebAuthnCredential(id: credential.id, userID: "auth0|else"))
            #expect(try await store.deleteWebAuthnCredential(id: credential.id, userID: credential.userID))
            #expect(try await !store.deleteWebAuthnCredential(id: credential.id, userID: credential.userID))
        }
    }
}
