import Foundation
import Testing
import WardenCore
import WardenWire

@testable import WardenStorage

@Suite("SessionTransferStore: cascade revocation")
struct SessionTransferStoreTests {
    private static func session(sourceFamilyID: String?) -> Session {
        Session(
            id: uniqueID("sid"), userID: uniqueID("auth0|user"), createdAt: storedTime(), authTime: storedTime(),
            lastActiveAt: storedTime(), expiresAt: storedTime(3600), idleExpiresAt: storedTime(600),
            method: sourceFamilyID == nil ? "password" : "session_transfer", sourceFamilyID: sourceFamilyID)
    }

    private static func token(sessionID: String, revokedAt: Date? = nil) -> RefreshTokenRecord {
        RefreshTokenRecord(
            tokenHash: uniqueID("rt"), familyID: uniqueID("family"), clientID: uniqueID("web"),
            userID: uniqueID("auth0|user"), audience: nil, scope: ["openid", "offline_access"],
            authorizationDetails: nil, sessionID: sessionID, createdAt: storedTime(), expiresAt: nil, usedAt: nil,
            revokedAt: revokedAt)
    }

    @Test(
        "ends the sessions made from a family and revokes the refresh tokens issued within them, nothing else",
        arguments: TestDatabase.available)
    func endsTransferredSessions(database: TestDatabase) async throws {
        try await database.withStore { store in
            let family = uniqueID("family")
            let made = [Self.session(sourceFamilyID: family), Self.session(sourceFamilyID: family)]
            let others = [Self.session(sourceFamilyID: uniqueID("family")), Self.session(sourceFamilyID: nil)]
            for session in made + others { try await store.insertSession(session, secretHash: uniqueID("secret")) }
            let earlier = storedTime(-60)
            let withinMade = [
                Self.token(sessionID: made[0].id), Self.token(sessionID: made[1].id),
                Self.token(sessionID: made[1].id, revokedAt: earlier),
            ]
            let withinOthers = others.map { Self.token(sessionID: $0.id) }
            for token in withinMade + withinOthers { try await store.insertRefreshToken(token) }

            let now = storedTime(5)
            #expect(try await store.endTransferredSessions(sourceFamilyID: family, at: now) == 2)
            for session in made { #expect(try await store.session(id: session.id) == nil) }
            for session in others { #expect(try await store.session(id: session.id) == session) }
            #expect(try await store.refreshToken(hash: withinMade[0].tokenHash)?.revokedAt == now)
            #expect(try await store.refreshToken(hash: withinMade[1].tokenHash)?.revokedAt == now)
            #expect(try await store.refreshToken(hash: withinMade[2].tokenHash)?.revokedAt == earlier)
            for token in withinOthers { #expect(try await store.refreshToken(hash: token.tokenHash)?.revokedAt == nil) }
            // The ended sessions' families take no new token (a rotation racing the cascade); others still do.
            var late = Self.token(sessionID: made[0].id)
            late.familyID = withinMade[0].familyID
            await #expect(throws: StorageError.revoked) { try await store.insertRefreshToken(late) }
            var other = Self.token(sessionID: others[0].id)
            other.familyID = withinOthers[0].familyID
            try await store.insertRefreshToken(other)

            #expect(try await store.endTransferredSessions(sourceFamilyID: family, at: now) == 0)
            #expect(try await store.endTransferredSessions(sourceFamilyID: uniqueID("family"), at: now) == 0)
        }
    }
}
