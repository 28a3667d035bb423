import Foundation
import Testing
import WardenCore
import WardenWire

@testable import WardenStorage

@Suite("ArtefactStore: single-use values")
struct ArtefactStoreTests {
    @Test(
        "consume: the first use wins, a replay sees the payload, unknown is notFound", arguments: TestDatabase.available
    )
    func consumeOnce(database: TestDatabase) async throws {
        try await database.withStore { store in
            let hash = uniqueID("code")
            try await store.putArtefact(
                kind: "code", hash: hash, payload: "{\"sub\":\"alice\"}", expiresAt: storedTime(60))
            let now = Date()
            #expect(
                try await store.consumeArtefact(kind: "code", hash: hash, now: now)
                    == .consumed(payload: "{\"sub\":\"alice\"}"))
            #expect(
                try await store.consumeArtefact(kind: "code", hash: hash, now: now)
                    == .alreadyConsumed(payload: "{\"sub\":\"alice\"}"))
            // A replay after expiry is still a replay.
            #expect(
                try await store.consumeArtefact(kind: "code", hash: hash, now: now.addingTimeInterval(120))
                    == .alreadyConsumed(payload: "{\"sub\":\"alice\"}"))
            #expect(try await store.consumeArtefact(kind: "code", hash: uniqueID("never"), now: now) == .notFound)
            // Kinds are separate namespaces.
            #expect(try await store.consumeArtefact(kind: "refresh_token", hash: hash, now: now) == .notFound)
        }
    }

    @Test("consume after expiry is .expired", arguments: TestDatabase.available)
    func expired(database: TestDatabase) async throws {
        try await database.withStore { store in
            let hash = uniqueID("code")
            let expiresAt = storedTime(60)
            try await store.putArtefact(kind: "code", hash: hash, payload: "p", expiresAt: expiresAt)
            #expect(try await store.consumeArtefact(kind: "code", hash: hash, now: expiresAt) == .expired)
            #expect(
                try await store.consumeArtefact(kind: "code", hash: hash, now: expiresAt.addingTimeInterval(1))
                    == .expired)
            #expect(
                try await store.consumeArtefact(kind: "code", hash: hash, now: expiresAt.addingTimeInterval(-1))
                    == .consumed(payload: "p"))
        }
    }

    /// The access-token revocation list (SPEC §5, `AccessTokenRevocation` in WardenServer): one row per revoked
    /// grant, a second revocation is a conflict the caller ignores, and the entry reads as present until it expires.
    @Test(
        "a revocation-list entry: put once, a repeat conflicts, peek sees it until expiry",
        arguments: TestDatabase.available)
    func revocationListEntry(database: TestDatabase) async throws {
        try await database.withStore { store in
            let hash = uniqueID("grant")
            let expiresAt = storedTime(60)
            try await store.putArtefact(kind: "revoked_grant", hash: hash, payload: "", expiresAt: expiresAt)
            await #expect(throws: StorageError.self) {
                try await store.putArtefact(
                    kind: "revoked_grant", hash: hash, payload: "", expiresAt: expiresAt.addingTimeInterval(60))
            }
            let now = Date()
            #expect(try await store.peekArtefact(kind: "revoked_grant", hash: hash, now: now) == "")
            #expect(try await store.peekArtefact(kind: "revoked_grant", hash: hash, now: now) == "")
            #expect(try await store.peekArtefact(kind: "revoked_grant", hash: hash, now: expiresAt) == nil)
            #expect(try await store.peekArtefact(kind: "revoked_grant", hash: uniqueID("other"), now: now) == nil)
        }
    }

    @Test("peek reads without consuming; consumed, expired and unknown are nil", arguments: TestDatabase.available)
    func peek(database: TestDatabase) async throws {
        try await database.withStore { store in
            let hash = uniqueID("login_tx")
            let expiresAt = storedTime(60)
            try await store.putArtefact(kind: "login_tx", hash: hash, payload: "tx", expiresAt: expiresAt)
            let now = Date()
            #expect(try await store.peekArtefact(kind: "login_tx", hash: hash, now: now) == "tx")
            #expect(try await store.peekArtefact(kind: "login_tx", hash: hash, now: now) == "tx")
            #expect(
                try await store.peekArtefact(kind: "login_tx", hash: hash, now: expiresAt.addingTimeInterval(-0.001))
                    == "tx")
            #expect(try await store.peekArtefact(kind: "login_tx", hash: hash, now: expiresAt) == nil, "expired")
            #expect(try await store.peekArtefact(kind: "code", hash: hash, now: now) == nil, "another kind")
            #expect(try await store.peekArtefact(kind: "login_tx", hash: uniqueID("never"), now: now) == nil)

            #expect(try await store.consumeArtefact(kind: "login_tx", hash: hash, now: now) == .consumed(payload: "tx"))
            #expect(try await store.peekArtefact(kind: "login_tx", hash: hash, now: now) == nil, "consumed")

            let seen = uniqueID("jti")
            #expect(try await store.rememberOnce(kind: "jti", hash: seen, expiresAt: storedTime(60)))
            #expect(try await store.peekArtefact(kind: "jti", hash: seen, now: now) == nil, "remembered is consumed")
        }
    }

    @Test("put twice under one hash is a conflict", arguments: TestDatabase.available)
    func putConflict(database: TestDatabase) async throws {
        try await database.withStore { store in
            let hash = uniqueID("code")
            try await store.putArtefact(kind: "code", hash: hash, payload: "a", expiresAt: storedTime(60))
            await #expect(throws: StorageError.self) {
                try await store.putArtefact(kind: "code", hash: hash, payload: "b", expiresAt: storedTime(60))
            }
            try await store.putArtefact(kind: "other", hash: hash, payload: "c", expiresAt: storedTime(60))
        }
    }

    @Test("50 concurrent consumers: exactly one .consumed, 49 .alreadyConsumed", arguments: TestDatabase.available)
    func concurrentConsumers(database: TestDatabase) async throws {
        try await database.withStore { store in
            let hash = uniqueID("auth_req_id")
            try await store.putArtefact(kind: "ciba", hash: hash, payload: "grant", expiresAt: storedTime(60))
            let results = try await withThrowingTaskGroup(of: ConsumeResult.self) { group in
                for _ in 0..<50 {
                    group.addTask { try await store.consumeArtefact(kind: "ciba", hash: hash, now: Date()) }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(results.count(where: { $0 == .consumed(payload: "grant") }) == 1)
            #expect(results.count(where: { $0 == .alreadyConsumed(payload: "grant") }) == 49)
        }
    }

    @Test("50 concurrent rememberOnce with one hash: exactly one true", arguments: TestDatabase.available)
    func concurrentRememberOnce(database: TestDatabase) async throws {
        try await database.withStore { store in
            let hash = uniqueID("jti")
            let results = try await withThrowingTaskGroup(of: Bool.self) { group in
                for _ in 0..<50 {
                    group.addTask { try await store.rememberOnce(kind: "jti", hash: hash, expiresAt: storedTime(300)) }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(results.count(where: { $0 }) == 1)
            #expect(results.count == 50)
            #expect(try await store.rememberOnce(kind: "jti", hash: hash, expiresAt: storedTime(300)) == false)
            #expect(try await store.rememberOnce(kind: "other_jti", hash: hash, expiresAt: storedTime(300)))
        }
    }

    @Test("purge removes expired artefacts only", arguments: TestDatabase.available)
    func purge(database: TestDatabase) async throws {
        try await database.withStore { store in
            let old = uniqueID("old")
            let live = uniqueID("live")
            let now = storedTime()
            try await store.putArtefact(kind: "code", hash: old, payload: "old", expiresAt: now.addingTimeInterval(-10))
            try await store.putArtefact(
                kind: "code", hash: live, payload: "live", expiresAt: now.addingTimeInterval(60))
            while try await store.purgeBatch(.artefacts, endedBefore: now, limit: 500) == 500 {}
            #expect(try await store.consumeArtefact(kind: "code", hash: old, now: now) == .notFound)
            #expect(try await store.consumeArtefact(kind: "code", hash: live, now: now) == .consumed(payload: "live"))
        }
    }
}
