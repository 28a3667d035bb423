import Foundation
import Testing
import WardenCore
import WardenWire

@testable import WardenStorage

/// The sign-in pushes of SPEC §12: stored with their device transactions, found by their page's transaction, capped
/// per user (push fatigue), decided once, listed to devices beside CIBA requests while pending, purged when expired.
@Suite("LoginChallengeStore")
struct LoginChallengeStoreTests {
    private static func challenge(userID: String, createdAt: Date = storedTime(), lifetime: Double = 300)
        -> LoginChallenge
    {
        LoginChallenge(
            id: LoginChallenge.ID(authRequestID: uniqueID("login")), transactionHash: uniqueID("tx"), userID: userID,
            clientID: "client", source: ["b": ["n": "Chrome", "v": "131"]], location: ["n": "Germany"],
            createdAt: createdAt,
            expiresAt: Date(millisecondsSince1970: createdAt.millisecondsSince1970 + Int64(lifetime * 1000)))
    }

    private static func transaction(of challenge: LoginChallenge, enrollmentID: String) -> DeviceTransaction {
        DeviceTransaction(
            id: uniqueID("dtx"), requestID: challenge.id, enrollmentID: enrollmentID, challenge: uniqueID("c"),
            createdAt: challenge.createdAt, expiresAt: challenge.expiresAt)
    }

    @Test(
        "stored with its transactions, found by id and by its page, listed to the device while pending",
        arguments: TestDatabase.available)
    func storeAndList(database: TestDatabase) async throws {
        try await database.withStore { store in
            let userID = uniqueID("auth0|user")
            let first = Self.challenge(userID: userID)
            var later = Self.challenge(userID: userID, createdAt: first.createdAt.addingTimeInterval(1))
            later.transactionHash = first.transactionHash
            let enrollmentID = uniqueID("dev")
            let transaction = Self.transaction(of: first, enrollmentID: enrollmentID)
            #expect(try await store.insertLoginChallenge(first, transactions: [transaction], pendingLimit: 3))
            #expect(try await store.insertLoginChallenge(later, transactions: [], pendingLimit: 3))
            #expect(try await store.loginChallenge(id: first.id) == first)
            #expect(try await store.latestLoginChallenge(transactionHash: first.transactionHash) == later)
            #expect(try await store.latestLoginChallenge(transactionHash: "unknown") == nil)
            let now = first.createdAt.addingTimeInterval(2)
            #expect(try await store.pendingDeviceTransactions(enrollmentID: enrollmentID, now: now) == [transaction])
            guard
                case .decided(let decided) = try await store.decideLoginChallenge(
                    id: first.id, approved: false, at: now)
            else {
                Issue.record("not decided")
                return
            }
            #expect(decided.status == .rejected && decided.decidedAt == now)
            #expect(try await store.pendingDeviceTransactions(enrollmentID: enrollmentID, now: now).isEmpty)
        }
    }

    @Test(
        "concurrent answers: exactly one decides; then already decided; expired ones are not decided",
        arguments: TestDatabase.available)
    func decideOnce(database: TestDatabase) async throws {
        try await database.withStore { store in
            let challenge = Self.challenge(userID: uniqueID("auth0|user"))
            #expect(try await store.insertLoginChallenge(challenge, transactions: [], pendingLimit: 3))
            let now = challenge.createdAt.addingTimeInterval(1)
            let outcomes = try await withThrowingTaskGroup(of: LoginChallengeDecision.self) { group in
                for index in 0..<8 {
                    group.addTask {
                        try await store.decideLoginChallenge(id: challenge.id, approved: index % 2 == 0, at: now)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(outcomes.filter { if case .decided = $0 { true } else { false } }.count == 1)
            #expect(outcomes.filter { if case .alreadyDecided = $0 { true } else { false } }.count == 7)
            let stale = Self.challenge(userID: uniqueID("auth0|user"), lifetime: 1)
            #expect(try await store.insertLoginChallenge(stale, transactions: [], pendingLimit: 3))
            let late = stale.expiresAt.addingTimeInterval(1)
            #expect(try await store.decideLoginChallenge(id: stale.id, approved: true, at: late) == .expired(stale))
            let unknown = LoginChallenge.ID(authRequestID: uniqueID("none"))
            #expect(try await store.decideLoginChallenge(id: unknown, approved: true, at: late) == .notFound)
        }
    }

    @Test(
        "at most the limit wait per user, counted atomically; an expired or answered one frees a place",
        arguments: TestDatabase.available)
    func pushFatigueCap(database: TestDatabase) async throws {
        try await database.withStore { store in
            let userID = uniqueID("auth0|user")
            // a start in the 2000s: the purge below must not reach the challenges of tests running beside this one
            // on the shared PostgreSQL database
            let start = Date(millisecondsSince1970: Int64.random(in: 946_684_800_000..<1_262_304_000_000))
            let stored = try await withThrowingTaskGroup(of: Bool.self) { group in
                for _ in 0..<6 {
                    group.addTask {
                        try await store.insertLoginChallenge(
                            Self.challenge(userID: userID, createdAt: start), transactions: [], pendingLimit: 3)
                    }
                }
                return try await group.reduce(into: 0) { $0 += $1 ? 1 : 0 }
            }
            #expect(stored == 3)
            // another user is not held up
            #expect(
                try await store.insertLoginChallenge(
                    Self.challenge(userID: uniqueID("auth0|other")), transactions: [], pendingLimit: 3))
            // five minutes later the three have expired
            let later = Self.challenge(userID: userID, createdAt: start.addingTimeInterval(301))
            #expect(try await store.insertLoginChallenge(later, transactions: [], pendingLimit: 3))
            let purged = try await store.purgeBatch(
                .loginChallenges, endedBefore: start.addingTimeInterval(301), limit: 100)
            #expect(purged >= 3)
            #expect(try await store.loginChallenge(id: later.id) == later)
        }
    }
}
