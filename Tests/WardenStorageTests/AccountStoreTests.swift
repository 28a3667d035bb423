import Foundation
import Testing
import WardenCore
import WardenWire

@testable import WardenStorage

/// ``AccountStore`` (SPEC §15.1) on SQLite and PostgreSQL: the password history keeps the newest, a reset finds
/// the user's live refresh-token families and sessions, and unlocking ends a lock still in force.
@Suite("AccountStore: password history, and what a reset ends")
struct AccountStoreTests {
    @Test("the history answers the newest first and keeps only `keep`", arguments: TestDatabase.available)
    func history(database: TestDatabase) async throws {
        try await database.withStore { store in
            let userID = uniqueID("auth0|history")
            for index in 0..<5 {
                try await store.recordPassword(
                    userID: userID, hash: "hash-\(index)", at: storedTime(Double(index)), keep: 3)
            }
            #expect(try await store.passwordHistory(userID: userID, limit: 10) == ["hash-4", "hash-3", "hash-2"])
            #expect(try await store.passwordHistory(userID: userID, limit: 2) == ["hash-4", "hash-3"])
            #expect(try await store.passwordHistory(userID: uniqueID("auth0|other"), limit: 10).isEmpty)
        }
    }

    @Test("a user's live families, sessions and lock", arguments: TestDatabase.available)
    func resetTargets(database: TestDatabase) async throws {
        try await database.withStore { store in
            let userID = uniqueID("auth0|reset")
            let other = uniqueID("auth0|other")
            let now = storedTime()
            func token(_ family: String, user: String, revoked: Bool = false) -> RefreshTokenRecord {
                RefreshTokenRecord(
                    tokenHash: uniqueID("hash"), familyID: family, clientID: "client-\(family)", userID: user,
                    audience: nil, scope: ["openid"], authorizationDetails: nil, sessionID: nil, createdAt: now,
                    expiresAt: nil, revokedAt: revoked ? now : nil)
            }
            let live = uniqueID("family")
            let revoked = uniqueID("family")
            try await store.insertRefreshToken(token(live, user: userID))
            try await store.insertRefreshToken(token(live, user: userID))
            try await store.insertRefreshToken(token(revoked, user: userID, revoked: true))
            try await store.insertRefreshToken(token(uniqueID("family"), user: other))
            #expect(
                try await store.liveRefreshTokenFamilies(userID: userID)
                    == [RefreshTokenFamily(familyID: live, clientID: "client-\(live)")])

            for id in [uniqueID("ses"), uniqueID("ses")] {
                try await store.insertSession(
                    Session(
                        id: id, userID: userID, createdAt: now, authTime: now, lastActiveAt: now,
                        expiresAt: now.addingTimeInterval(3600), idleExpiresAt: now.addingTimeInterval(3600),
                        method: "pwd"),
                    secretHash: uniqueID("secret"))
            }
            #expect(try await store.deleteSessions(userID: userID) == 2)
            #expect(try await store.deleteSessions(userID: userID) == 0)

            try await store.lockLogin(userID: userID, until: Date().addingTimeInterval(900))
            #expect(try await store.loginLockedUntil(userID: userID, now: Date()) != nil)
            try await store.unlockLogin(userID: userID)
            #expect(try await store.loginLockedUntil(userID: userID, now: Date()) == nil)
        }
    }
}
