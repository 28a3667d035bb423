import Foundation
import Testing
import WardenCore
import WardenWire

@testable import WardenStorage

/// Each test rotates its own algorithm: "current" is global per algorithm, and the PostgreSQL database is shared.
@Suite("SigningKeyStore: rotation and revocation")
struct SigningKeyStoreTests {
    private static func key(_ alg: SigningAlgorithm, createdAt: Date) -> SigningKeyRecord {
        SigningKeyRecord(
            kid: uniqueID("kid"), alg: alg, privateKey: "-----BEGIN PRIVATE KEY-----\n…", current: false,
            createdAt: createdAt, currentSince: nil, revokedAt: nil)
    }

    @Test("Rotation keeps the previous key published until it is revoked", arguments: TestDatabase.available)
    func rotation(database: TestDatabase) async throws {
        try await database.withStore { store in
            let first = Self.key(.es256, createdAt: storedTime(-10))
            let second = Self.key(.es256, createdAt: storedTime())
            try await store.insertCurrentSigningKey(first)
            try await store.insertCurrentSigningKey(second)

            let keys = try await store.signingKeys()
            let stored = try #require(keys.first { $0.kid == first.kid })
            let current = try #require(keys.first { $0.kid == second.kid })
            #expect(stored.isPrevious)
            #expect(stored.currentSince == first.createdAt)
            #expect(current.current && current.revokedAt == nil)
            #expect(current.privateKey == second.privateKey && current.createdAt == second.createdAt)
            #expect(keys.filter { $0.alg == .es256 && $0.current }.map(\.kid) == [second.kid])
            let mine = keys.filter { [first.kid, second.kid].contains($0.kid) }.map(\.kid)
            #expect(mine == [first.kid, second.kid], "oldest first")

            await #expect(
                throws: StorageError.conflict("Signing key '\(second.kid)' is current; rotate before revoking it")
            ) {
                try await store.revokeSigningKey(kid: second.kid, at: Date())
            }
            await #expect(throws: StorageError.notFound) {
                try await store.revokeSigningKey(kid: uniqueID("kid"), at: Date())
            }
            let revokedAt = storedTime()
            try await store.revokeSigningKey(kid: first.kid, at: revokedAt)
            try await store.revokeSigningKey(kid: first.kid, at: revokedAt.addingTimeInterval(60))
            let revoked = try #require(try await store.signingKeys().first { $0.kid == first.kid })
            #expect(revoked.revokedAt == revokedAt, "a second revocation keeps the first date")
            #expect(!revoked.isPrevious && !revoked.current)

            await #expect(throws: StorageError.self) { try await store.insertCurrentSigningKey(second) }
        }
    }

    @Test("Concurrent rotations leave exactly one current key", arguments: TestDatabase.available)
    func concurrentRotations(database: TestDatabase) async throws {
        try await database.withStore { store in
            let keys = (0..<20).map { _ in Self.key(.ps256, createdAt: storedTime()) }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for key in keys {
                    group.addTask { try await store.insertCurrentSigningKey(key) }
                }
                try await group.waitForAll()
            }
            let stored = try await store.signingKeys().filter { $0.alg == .ps256 }
            #expect(stored.count(where: \.current) == 1)
            #expect(Set(keys.map(\.kid)).isSubset(of: stored.map(\.kid)))
        }
    }
}
