import Foundation
import SQLKit
import Testing
import WardenCore
import WardenWire

@testable import WardenStorage

@Suite("LoginThrottleStore: password-login failures and locks")
struct LoginThrottleStoreTests {
    private static let window: TimeInterval = 15 * 60

    /// The failure rows kept for `userID`.
    private static func storedFailures(_ store: SQLStore, _ userID: String) async throws -> Int {
        try await store.count(from: "login_failures", where: SQLStore.equals("user_id", userID))
    }

    /// Reserves one attempt of `userID` at `at`, with the 15-minute window and the limit of 10 (SPEC §5).
    private static func reserve(_ store: SQLStore, _ userID: String, at: Date) async throws
        -> LoginAttemptReservation
    {
        try await store.reserveLoginAttempt(
            userID: userID, at: at, windowStart: at.addingTimeInterval(-window), limit: 10)
    }

    @Test(
        "attempts are numbered within the window; older ones are dropped; the eleventh is locked",
        arguments: TestDatabase.available)
    func reservationsInWindow(database: TestDatabase) async throws {
        try await database.withStore { store in
            let userID = uniqueID("auth0|user")
            let start = storedTime(-3600)
            for minute in 0..<3 {
                let at = start.addingTimeInterval(Double(minute) * 60)
                #expect(try await Self.reserve(store, userID, at: at) == .reserved(ordinal: minute + 1))
            }
            // Twenty minutes on, the three are outside the window.
            let now = start.addingTimeInterval(20 * 60)
            var answers: [LoginAttemptReservation] = []
            for second in 0..<11 {
                answers.append(try await Self.reserve(store, userID, at: now.addingTimeInterval(Double(second))))
            }
            #expect(answers == (1...10).map { .reserved(ordinal: $0) } + [.locked])
            #expect(try await Self.storedFailures(store, userID) == 10, "older ones deleted, the locked one not kept")
            #expect(try await store.loginLockedUntil(userID: userID, now: now) == nil, "a full window is no lock")

            let otherUser = uniqueID("auth0|user")
            #expect(try await Self.reserve(store, otherUser, at: now) == .reserved(ordinal: 1))
        }
    }

    @Test("a lock in force refuses a reservation; its end allows one", arguments: TestDatabase.available)
    func lockRefusesReservation(database: TestDatabase) async throws {
        try await database.withStore { store in
            let userID = uniqueID("auth0|user")
            let now = storedTime()
            try await store.lockLogin(userID: userID, until: now.addingTimeInterval(60))
            #expect(try await Self.reserve(store, userID, at: now) == .locked)
            #expect(try await Self.storedFailures(store, userID) == 0)
            #expect(try await Self.reserve(store, userID, at: now.addingTimeInterval(60)) == .reserved(ordinal: 1))
        }
    }

    /// SPEC §11: of N concurrent attempts at most the first 10 are checked. On PostgreSQL the attempts are spread
    /// over two stores (two nodes).
    @Test(
        "30 concurrent reservations: exactly 10 reserved, numbered 1…10; 20 locked", arguments: TestDatabase.available)
    func concurrentReservations(database: TestDatabase) async throws {
        try await database.withNodes(Self.concurrentRound)
    }

    private static func concurrentRound(nodes: [SQLStore]) async throws {
        let userID = uniqueID("auth0|user")
        let now = storedTime()
        let answers = try await withThrowingTaskGroup(of: LoginAttemptReservation.self) { group in
            for attempt in 0..<30 {
                let store = nodes[attempt % nodes.count]
                group.addTask { try await reserve(store, userID, at: now) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        let ordinals = answers.compactMap { if case .reserved(let ordinal) = $0 { ordinal } else { nil } }
        #expect(ordinals.sorted() == Array(1...10))
        #expect(answers.filter { $0 == .locked }.count == 20)
        #expect(try await storedFailures(nodes[0], userID) == 10)
    }

    @Test("a lock is in force until its end, a new lock replaces it", arguments: TestDatabase.available)
    func lock(database: TestDatabase) async throws {
        try await database.withStore { store in
            let userID = uniqueID("auth0|user")
            let now = storedTime()
            #expect(try await store.loginLockedUntil(userID: userID, now: now) == nil)

            let until = now.addingTimeInterval(Self.window)
            try await store.lockLogin(userID: userID, until: until)
            #expect(try await store.loginLockedUntil(userID: userID, now: now) == until)
            #expect(try await store.loginLockedUntil(userID: userID, now: until.addingTimeInterval(-0.001)) == until)
            #expect(try await store.loginLockedUntil(userID: userID, now: until) == nil, "lifted at its end")
            #expect(try await store.loginLockedUntil(userID: uniqueID("auth0|user"), now: now) == nil)

            let later = until.addingTimeInterval(Self.window)
            try await store.lockLogin(userID: userID, until: later)
            #expect(try await store.loginLockedUntil(userID: userID, now: until) == later)
        }
    }

    @Test("clear forgets the failures and an ended lock, not a lock in force", arguments: TestDatabase.available)
    func clear(database: TestDatabase) async throws {
        try await database.withStore { store in
            let userID = uniqueID("auth0|user")
            let now = storedTime()
            for _ in 0..<5 { _ = try await Self.reserve(store, userID, at: now) }
            let locked = uniqueID("auth0|user")
            _ = try await Self.reserve(store, locked, at: now)

            try await store.lockLogin(userID: userID, until: storedTime(-1))
            try await store.clearLoginFailures(userID: userID)
            #expect(try await Self.storedFailures(store, userID) == 0)
            #expect(
                try await store.count(from: "login_locks", where: SQLStore.equals("user_id", userID)) == 0,
                "the ended lock is deleted")
            #expect(try await Self.reserve(store, userID, at: now) == .reserved(ordinal: 1))
            #expect(try await Self.storedFailures(store, locked) == 1, "other users keep theirs")

            let until = storedTime(Self.window)
            try await store.lockLogin(userID: locked, until: until)
            try await store.clearLoginFailures(userID: locked)
            #expect(try await store.loginLockedUntil(userID: locked, now: now) == until)
        }
    }
}
