import Foundation
import Testing
import WardenCore
import WardenWire

@testable import WardenStorage

@Suite("SessionStore: SSO sessions")
struct SessionStoreTests {
    /// A session of a fresh user, active for an hour (idle end in ten minutes).
    private static func session(
        createdAt: Date = storedTime(), sourceFamilyID: String? = nil, method: String = "password"
    ) -> Session {
        Session(
            id: uniqueID("sid"), userID: uniqueID("auth0|user"), createdAt: createdAt, authTime: createdAt,
            lastActiveAt: createdAt, expiresAt: createdAt.addingTimeInterval(3600),
            idleExpiresAt: createdAt.addingTimeInterval(600), method: method, sourceFamilyID: sourceFamilyID)
    }

    @Test("insert, then find by secret hash and by id; unknown is nil", arguments: TestDatabase.available)
    func insertAndLookUp(database: TestDatabase) async throws {
        try await database.withStore { store in
            let session = Self.session()
            let secretHash = uniqueID("secret")
            try await store.insertSession(session, secretHash: secretHash)
            #expect(try await store.session(secretHash: secretHash) == session)
            #expect(try await store.session(id: session.id) == session)
            #expect(try await store.session(secretHash: uniqueID("secret")) == nil)
            #expect(try await store.session(id: uniqueID("sid")) == nil)

            let transferred = Self.session(sourceFamilyID: uniqueID("family"), method: "session_transfer")
            try await store.insertSession(transferred, secretHash: uniqueID("secret"))
            #expect(try await store.session(id: transferred.id) == transferred)
        }
    }

    @Test("insert with a taken id or secret hash is a conflict", arguments: TestDatabase.available)
    func insertConflict(database: TestDatabase) async throws {
        try await database.withStore { store in
            let session = Self.session()
            let secretHash = uniqueID("secret")
            try await store.insertSession(session, secretHash: secretHash)
            await #expect(throws: StorageError.conflict("The session already exists")) {
                try await store.insertSession(session, secretHash: uniqueID("secret"))
            }
            await #expect(throws: StorageError.conflict("The session already exists")) {
                try await store.insertSession(Self.session(), secretHash: secretHash)
            }
        }
    }

    @Test("update replaces auth time and activity times; unknown is notFound", arguments: TestDatabase.available)
    func update(database: TestDatabase) async throws {
        try await database.withStore { store in
            let session = Self.session(createdAt: storedTime(-120))
            let secretHash = uniqueID("secret")
            try await store.insertSession(session, secretHash: secretHash)

            var updated = session
            let now = storedTime()
            updated.authTime = now
            updated.lastActiveAt = now
            updated.idleExpiresAt = now.addingTimeInterval(600)
            updated.expiresAt = now.addingTimeInterval(7200)
            updated.sourceFamilyID = uniqueID("family")
            try await store.updateSession(updated)
            #expect(try await store.session(id: session.id) == updated)
            #expect(try await store.session(secretHash: secretHash) == updated, "the secret hash is kept")

            var moved = updated
            moved.createdAt = now
            try await store.updateSession(moved)
            #expect(try await store.session(id: session.id)?.createdAt == session.createdAt, "created_at is kept")

            await #expect(throws: StorageError.notFound) { try await store.updateSession(Self.session()) }
        }
    }

    @Test("delete by id, and every session of a refresh-token family", arguments: TestDatabase.available)
    func delete(database: TestDatabase) async throws {
        try await database.withStore { store in
            let session = Self.session()
            let secretHash = uniqueID("secret")
            try await store.insertSession(session, secretHash: secretHash)
            #expect(try await store.deleteSession(id: session.id))
            #expect(try await store.session(secretHash: secretHash) == nil)
            #expect(try await store.deleteSession(id: session.id) == false)

            let family = uniqueID("family")
            let fromFamily = [Self.session(sourceFamilyID: family), Self.session(sourceFamilyID: family)]
            let others = [Self.session(sourceFamilyID: uniqueID("family")), Self.session()]
            for session in fromFamily + others {
                try await store.insertSession(session, secretHash: uniqueID("secret"))
            }
            #expect(try await store.deleteSessions(sourceFamilyID: family) == 2)
            for session in fromFamily { #expect(try await store.session(id: session.id) == nil) }
            for session in others { #expect(try await store.session(id: session.id) == session) }
            #expect(try await store.deleteSessions(sourceFamilyID: family) == 0)
        }
    }

    /// The times are in 1995, so that the purge touches no session of tests running beside this one.
    @Test("purge removes sessions past their absolute or idle end only", arguments: TestDatabase.available)
    func purge(database: TestDatabase) async throws {
        try await database.withStore { store in
            let cutoff = Date(millisecondsSince1970: 800_000_000_000)
            func session(expiresAt: TimeInterval, idleExpiresAt: TimeInterval) -> Session {
                var session = Self.session(createdAt: cutoff.addingTimeInterval(-3600))
                session.expiresAt = cutoff.addingTimeInterval(expiresAt)
                session.idleExpiresAt = cutoff.addingTimeInterval(idleExpiresAt)
                return session
            }
            let ended = session(expiresAt: -1, idleExpiresAt: 600)
            let idle = session(expiresAt: 3600, idleExpiresAt: -0.001)
            let live = session(expiresAt: 3600, idleExpiresAt: 600)
            let endingNow = session(expiresAt: 0, idleExpiresAt: 0)
            for session in [ended, idle, live, endingNow] {
                try await store.insertSession(session, secretHash: uniqueID("secret"))
            }
            _ = try await store.purgeBatch(.sessions, endedBefore: cutoff, limit: 1000)
            #expect(try await store.session(id: ended.id) == nil)
            #expect(try await store.session(id: idle.id) == nil)
            #expect(try await store.session(id: live.id) == live)
            #expect(try await store.session(id: endingNow.id) == endingNow, "an end at the cutoff is not before it")
        }
    }
}
