import Foundation
import SQLKit
import Testing
import WardenCore

@testable import WardenStorage

@Suite("LoginThrottleStore: password-login failures and locks")
struct LoginThrottleStoreTests {
    private static let window: TimeInterval = 15 * 60

    /// The failure rows kept for `userID`.
    private static func storedFailures(_ store: SQLStore, _ userID: String) async throws -> Int {
        try await store.count(from: "login_failures", where: SQLStore.equals("user_id", userID))
    }

    @Test(
        "failures are counted within the window; older ones are ignored and dropped", arguments: TestDatabase.available)
    func failuresInWindow(database: TestDatabase) async throws {
        try await database.withStore { store in
            let userID = uniqueID("auth0|user")
            let start = storedTime(-3600)
            for minute in 0..<3 {
                let at = start.addingTimeInterval(Double(minute) * 60)
                let count = try await store.recordLoginFailure(
                    userID: userID, at: at, windowStart: at.addingTimeInterval(-Self.window))
                #expect(count == minute + 1)
            }
            // Twenty minutes on, the three are outside the window.
            let now = start.addingTimeInterval(20 * 60)
            var counts: [Int] = []
            for second in 0..<10 {
                let at = now.addingTimeInterval(Double(second))
                counts.append(
                    try await store.recordLoginFailure(
                        userID: userID, at: at, windowStart: at.addingTimeInterval(-Self.window)))
            }
            #expect(counts == Array(1...10))
            #expect(try await Self.storedFailures(store, userID) == 10, "failures before the window are deleted")

            let otherUser = uniqueID("auth0|user")
            #expect(
                try await store.recordLoginFailure(
                    userID: otherUser, at: now, windowStart: now.addingTimeInterval(-Self.window)) == 1)
        }
    }

    @Test("concurrent failures: the last to count sees them all", arguments: TestDatabase.available)
    func concurrentFailures(database: TestDatabase) async throws {
        try await database.withStore { store in
            let userID = uniqueID("auth0|user")
            let now = storedTime()
            let counts = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<10 {
                    group.addTask {
                        try await store.recordLoginFailure(
                            userID: userID, at: now, windowStart: now.addingTimeInterval(-Self.window))
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(counts.max() == 10)
        }
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
            let windowStart = now.addingTimeInterval(-Self.window)
            for _ in 0..<5 { _ = try await store.recordLoginFailure(userID: userID, at: now, windowStart: windowStart) }
            let locked = uniqueID("auth0|user")
            _ = try await store.recordLoginFailure(userID: locked, at: now, windowStart: windowStart)

            try await store.lockLogin(userID: userID, until: storedTime(-1))
            try await store.clearLoginFailures(userID: userID)
            #expect(try await Self.storedFailures(store, userID) == 0)
            #expect(
                try await store.count(from: "login_locks", where: SQLStore.equals("user_id", userID)) == 0,
                "the ended lock is deleted")
            #expect(try await store.recordLoginFailure(userID: userID, at: now, windowStart: windowStart) == 1)
            #expect(try await Self.storedFailures(store, locked) == 1, "other users keep theirs")

            let until = storedTime(Self.window)
            try await store.lockLogin(userID: locked, until: until)
            try await store.clearLoginFailures(userID: locked)
            #expect(try await store.loginLockedUntil(userID: locked, now: now) == until)
        }
    }
}
