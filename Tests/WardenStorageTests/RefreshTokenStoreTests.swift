import Foundation
import Testing
import WardenCore
import WardenWire

@testable import WardenStorage

@Suite("RefreshTokenStore: redemption, rotation, reuse and revocation")
struct RefreshTokenStoreTests {
    /// A token of a fresh family, expiring in a day unless `expiresAt` says otherwise.
    private static func token(
        familyID: String = uniqueID("family"), expiresAt: Date? = storedTime(86_400), usedAt: Date? = nil,
        revokedAt: Date? = nil
    ) -> RefreshTokenRecord {
        RefreshTokenRecord(
            tokenHash: uniqueID("rt"), familyID: familyID, clientID: uniqueID("client"),
            userID: uniqueID("auth0|user"), audience: "https://api.example.com", scope: ["openid", "offline_access"],
            authorizationDetails: [["type": "payment_initiation", "amount": 12, "note": "rent", "urgent": true]],
            sessionID: uniqueID("sid"), createdAt: storedTime(), expiresAt: expiresAt, usedAt: usedAt,
            revokedAt: revokedAt)
    }

    @Test("insert stores every field; a taken hash is a conflict; unknown is nil", arguments: TestDatabase.available)
    func insertAndRead(database: TestDatabase) async throws {
        try await database.withStore { store in
            let token = Self.token()
            try await store.insertRefreshToken(token)
            #expect(try await store.refreshToken(hash: token.tokenHash) == token)

            var bare = Self.token(expiresAt: nil)
            bare.audience = nil
            bare.scope = []
            bare.authorizationDetails = nil
            bare.sessionID = nil
            try await store.insertRefreshToken(bare)
            #expect(try await store.refreshToken(hash: bare.tokenHash) == bare)

            await #expect(throws: StorageError.conflict("The refresh token already exists")) {
                try await store.insertRefreshToken(token)
            }
            #expect(try await store.refreshToken(hash: uniqueID("rt")) == nil)
        }
    }

    @Test(
        "context: the token with its user and its session's auth_time in one read; each may be gone",
        arguments: TestDatabase.available)
    func context(database: TestDatabase) async throws {
        try await database.withStore { store in
            var user = User(
                userID: uniqueID("auth0|user"), email: "\(uniqueID("user"))@example.com", createdAt: storedTime(-7200))
            user.name = "Alice Example"
            user.userMetadata = ["theme": "dark"]
            user.appMetadata = ["plan": "gold"]
            user.lastLogin = storedTime(-60)
            user.loginsCount = 3
            let userRecord = UserRecord(user: user, passwordHash: "$2b$12$hash")
            try await store.insertUser(userRecord)
            let authTime = storedTime(-900)
            let session = Session(
                id: uniqueID("sid"), userID: user.userID, createdAt: storedTime(-3600), authTime: authTime,
                lastActiveAt: storedTime(), expiresAt: storedTime(3600), idleExpiresAt: storedTime(600),
                method: "password", sourceFamilyID: nil)
            try await store.insertSession(session, secretHash: uniqueID("secret"))
            var token = Self.token()
            token.userID = user.userID
            token.sessionID = session.id
            try await store.insertRefreshToken(token)

            let context = try #require(try await store.refreshTokenContext(hash: token.tokenHash))
            #expect(context == RefreshTokenContext(token: token, user: userRecord, sessionAuthTime: authTime))
            #expect(context.user == (try await store.user(id: user.userID)))

            #expect(try await store.deleteSession(id: session.id))
            #expect(
                try await store.refreshTokenContext(hash: token.tokenHash)
                    == RefreshTokenContext(token: token, user: userRecord, sessionAuthTime: nil))
            #expect(try await store.deleteUser(id: user.userID))
            #expect(
                try await store.refreshTokenContext(hash: token.tokenHash)
                    == RefreshTokenContext(token: token, user: nil, sessionAuthTime: nil))
            #expect(try await store.refreshTokenContext(hash: uniqueID("rt")) == nil)
        }
    }

    @Test("non-rotating: a live token is valid every time", arguments: TestDatabase.available)
    func nonRotating(database: TestDatabase) async throws {
        try await database.withStore { store in
            let token = Self.token()
            try await store.insertRefreshToken(token)
            #expect(
                try await store.useRefreshToken(hash: token.tokenHash, rotating: false, now: Date()) == .valid(token))
            #expect(
                try await store.useRefreshToken(hash: token.tokenHash, rotating: false, now: Date()) == .valid(token))

            // Used while the client rotated: still valid once it no longer does.
            let used = Self.token(usedAt: storedTime(-60))
            try await store.insertRefreshToken(used)
            #expect(try await store.useRefreshToken(hash: used.tokenHash, rotating: false, now: Date()) == .valid(used))

            #expect(
                try await store.useRefreshToken(hash: uniqueID("rt"), rotating: false, now: Date()) == .notFound)
            #expect(try await store.useRefreshToken(hash: uniqueID("rt"), rotating: true, now: Date()) == .notFound)
        }
    }

    @Test("rotating: valid once (marked used), then reused", arguments: TestDatabase.available)
    func rotating(database: TestDatabase) async throws {
        try await database.withStore { store in
            let token = Self.token()
            try await store.insertRefreshToken(token)
            let now = storedTime()
            var used = token
            used.usedAt = now
            #expect(try await store.useRefreshToken(hash: token.tokenHash, rotating: true, now: now) == .valid(used))
            #expect(try await store.refreshToken(hash: token.tokenHash) == used)
            #expect(
                try await store.useRefreshToken(hash: token.tokenHash, rotating: true, now: now.addingTimeInterval(5))
                    == .reused(used),
                "the first use's time is kept")

            let forever = Self.token(expiresAt: nil)
            try await store.insertRefreshToken(forever)
            let later = storedTime(365 * 86_400)
            var usedForever = forever
            usedForever.usedAt = later
            #expect(
                try await store.useRefreshToken(hash: forever.tokenHash, rotating: true, now: later)
                    == .valid(usedForever), "a token without expires_at does not expire")
        }
    }

    @Test("50 concurrent rotating uses: exactly one .valid, 49 .reused", arguments: TestDatabase.available)
    func concurrentRotation(database: TestDatabase) async throws {
        try await database.withStore { store in
            let token = Self.token()
            try await store.insertRefreshToken(token)
            let results = try await withThrowingTaskGroup(of: RefreshTokenUse.self) { group in
                for _ in 0..<50 {
                    group.addTask {
                        try await store.useRefreshToken(hash: token.tokenHash, rotating: true, now: Date())
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let valid = results.compactMap { if case .valid(let record) = $0 { record } else { nil } }
            let reused = results.compactMap { if case .reused(let record) = $0 { record } else { nil } }
            #expect(valid.count == 1)
            #expect(reused.count == 49)
            let winner = try #require(valid.first)
            #expect(winner.usedAt != nil)
            #expect(reused.allSatisfy { $0 == winner }, "every loser sees the winner's use")
            #expect(try await store.refreshToken(hash: token.tokenHash) == winner)
        }
    }

    @Test("a revoked family is .revoked in both modes; the count is of live tokens", arguments: TestDatabase.available)
    func revokedFamily(database: TestDatabase) async throws {
        try await database.withStore { store in
            let family = uniqueID("family")
            let live = [Self.token(familyID: family), Self.token(familyID: family, expiresAt: nil)]
            let used = Self.token(familyID: family, usedAt: storedTime(-60))
            let expired = Self.token(familyID: family, expiresAt: storedTime(-60))
            let earlier = storedTime(-30)
            let revoked = Self.token(familyID: family, revokedAt: earlier)
            let otherFamily = Self.token()
            for token in live + [used, expired, revoked, otherFamily] { try await store.insertRefreshToken(token) }

            let revokedAt = storedTime()
            #expect(try await store.revokeRefreshTokenFamily(family, at: revokedAt) == 2)
            for token in live + [used, expired, revoked] {
                #expect(try await store.useRefreshToken(hash: token.tokenHash, rotating: true, now: Date()) == .revoked)
                #expect(
                    try await store.useRefreshToken(hash: token.tokenHash, rotating: false, now: Date()) == .revoked)
            }
            #expect(try await store.refreshToken(hash: live[0].tokenHash)?.revokedAt == revokedAt)
            #expect(try await store.refreshToken(hash: revoked.tokenHash)?.revokedAt == earlier, "the first date stays")
            #expect(try await store.refreshToken(hash: otherFamily.tokenHash)?.revokedAt == nil)
            #expect(try await store.revokeRefreshTokenFamily(family, at: storedTime()) == 0)
            #expect(try await store.revokeRefreshTokenFamily(uniqueID("family"), at: storedTime()) == 0)
        }
    }

    @Test("after reuse the family is revoked: the reused token is then .revoked", arguments: TestDatabase.available)
    func reuseThenRevoke(database: TestDatabase) async throws {
        try await database.withStore { store in
            let family = uniqueID("family")
            let first = Self.token(familyID: family)
            try await store.insertRefreshToken(first)
            guard case .valid = try await store.useRefreshToken(hash: first.tokenHash, rotating: true, now: Date())
            else {
                Issue.record("the first use must be valid")
                return
            }
            let second = Self.token(familyID: family)
            try await store.insertRefreshToken(second)
            guard case .reused = try await store.useRefreshToken(hash: first.tokenHash, rotating: true, now: Date())
            else {
                Issue.record("the second use must be a reuse")
                return
            }
            #expect(try await store.revokeRefreshTokenFamily(family, at: storedTime()) == 1)
            #expect(try await store.useRefreshToken(hash: second.tokenHash, rotating: true, now: Date()) == .revoked)
            #expect(try await store.useRefreshToken(hash: first.tokenHash, rotating: true, now: Date()) == .revoked)
        }
    }

    @Test(
        "a revoked family takes no new token, even one revoked before it had any (a replayed code)",
        arguments: TestDatabase.available)
    func insertIntoRevokedFamily(database: TestDatabase) async throws {
        try await database.withStore { store in
            let family = uniqueID("family")
            #expect(try await store.revokeRefreshTokenFamily(family, at: storedTime()) == 0)
            let successor = Self.token(familyID: family)
            await #expect(throws: StorageError.revoked) { try await store.insertRefreshToken(successor) }
            #expect(try await store.refreshToken(hash: successor.tokenHash) == nil)

            let other = Self.token()
            try await store.insertRefreshToken(other)
            #expect(try await store.refreshToken(hash: other.tokenHash) == other, "other families are untouched")
        }
    }

    /// RFC 9700 §4.14.2, SPEC §3: each round, 50 concurrent uses of one rotating token, as the refresh grant makes
    /// them: the one `.valid` use inserts its successor, each `.reused` one revokes the family. Whatever the
    /// interleaving, the round ends with every token of the family revoked, the winner's successor included (or
    /// that successor refused). In odd rounds the winner inserts only once a revocation has landed (as when the
    /// grant signs its tokens meanwhile): the interleaving that once left the successor alive. On PostgreSQL the
    /// uses are spread over two stores: two nodes.
    @Test(
        "50 concurrent uses × 12 rounds: reuse detection revokes the whole family, the winner's successor included",
        arguments: TestDatabase.available)
    func reuseRaceRevokesWholeFamily(database: TestDatabase) async throws {
        try await database.withNodes(Self.raceRounds)
    }

    private static func raceRounds(nodes: [SQLStore]) async throws {
        for round in 0..<12 {
            let family = uniqueID("family")
            let token = Self.token(familyID: family)
            try await nodes[0].insertRefreshToken(token)
            let successors = try await withThrowingTaskGroup(of: RefreshTokenRecord?.self) { group in
                for use in 0..<50 {
                    let store = nodes[use % nodes.count]
                    group.addTask {
                        switch try await store.useRefreshToken(hash: token.tokenHash, rotating: true, now: Date()) {
                        case .valid:
                            let successor = Self.token(familyID: family)
                            while !round.isMultiple(of: 2),
                                try await store.refreshToken(hash: token.tokenHash)?.revokedAt == nil
                            {
                                try await Task.sleep(for: .milliseconds(1))
                            }
                            do {
                                try await store.insertRefreshToken(successor)
                                return successor
                            } catch StorageError.revoked {
                                return nil
                            }
                        case .reused:
                            _ = try await store.revokeRefreshTokenFamily(family, at: Date())
                            return nil
                        default:
                            return nil
                        }
                    }
                }
                return try await group.reduce(into: [RefreshTokenRecord]()) {
                    if let successor = $1 { $0.append(successor) }
                }
            }
            #expect(successors.count <= 1, "round \(round): one use wins")
            for stored in [token] + successors {
                #expect(
                    try await nodes[0].refreshToken(hash: stored.tokenHash)?.revokedAt != nil,
                    "round \(round): \(stored == token ? "the reused token" : "the winner's successor") is revoked")
            }
        }
    }

    @Test("an expired token is .expired in both modes and is not marked used", arguments: TestDatabase.available)
    func expired(database: TestDatabase) async throws {
        try await database.withStore { store in
            let expiresAt = storedTime(60)
            let token = Self.token(expiresAt: expiresAt)
            try await store.insertRefreshToken(token)
            for now in [expiresAt, expiresAt.addingTimeInterval(1)] {
                #expect(try await store.useRefreshToken(hash: token.tokenHash, rotating: false, now: now) == .expired)
                #expect(try await store.useRefreshToken(hash: token.tokenHash, rotating: true, now: now) == .expired)
            }
            #expect(try await store.refreshToken(hash: token.tokenHash)?.usedAt == nil)
            let justBefore = expiresAt.addingTimeInterval(-0.001)
            guard case .valid = try await store.useRefreshToken(hash: token.tokenHash, rotating: true, now: justBefore)
            else {
                Issue.record("a token is valid until its expiry")
                return
            }
            // Used, then expired: expiry is reported first (nothing to revoke for a dead token).
            #expect(try await store.useRefreshToken(hash: token.tokenHash, rotating: true, now: expiresAt) == .expired)
        }
    }
}
