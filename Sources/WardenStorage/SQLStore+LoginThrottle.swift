import SQLKit
import WardenCore

public import struct Foundation.Date

/// `login_failures(user_id, at)`: one row per failed password login, kept while inside the window;
/// `login_locks(user_id, locked_until)`: one row per locked user.
extension SQLStore {
    /// Three statements, each committed on its own: deletes the user's failures older than `windowStart`,
    /// inserts this one, counts those since `windowStart`. As the insert is committed before the count, of
    /// concurrent failures the last to count sees them all, so the threshold is never skipped.
    public func recordLoginFailure(userID: String, at date: Date, windowStart: Date) async throws -> Int {
        let windowStart = windowStart.millisecondsSince1970
        try await sql.delete(from: "login_failures")
            .where("user_id", .equal, userID).where("at", .lessThan, windowStart)
            .run()
        try await sql.insert(into: "login_failures").columns("user_id", "at")
            .values(userID, date.millisecondsSince1970)
            .run()
        return try await count(
            from: "login_failures",
            where: Self.allOf([
                Self.equals("user_id", userID),
                SQLBinaryExpression(SQLColumn("at"), .greaterThanOrEqual, SQLBind(windowStart)),
            ]))
    }

    /// `INSERT … ON CONFLICT (user_id) DO UPDATE`: a new lock replaces the previous one.
    public func lockLogin(userID: String, until date: Date) async throws {
        try await sql.insert(into: "login_locks").columns("user_id", "locked_until")
            .values(userID, date.millisecondsSince1970)
            .onConflict(with: "user_id") { $0.set(excludedValueOf: "locked_until") }
            .run()
    }

    public func loginLockedUntil(userID: String, now: Date) async throws -> Date? {
        try await sql.select().column("locked_until").from("login_locks")
            .where("user_id", .equal, userID).where("locked_until", .greaterThan, now.millisecondsSince1970)
            .first(decodingColumn: "locked_until", as: Int64.self)
            .map(Date.init(millisecondsSince1970:))
    }

    /// Deletes the user's failures and their lock if it has ended; a lock still in force (taken by a failure
    /// racing the successful login) stays.
    public func clearLoginFailures(userID: String) async throws {
        try await sql.delete(from: "login_failures").where("user_id", .equal, userID).run()
        try await sql.delete(from: "login_locks")
            .where("user_id", .equal, userID).where("locked_until", .lessThanOrEqual, Date().millisecondsSince1970)
            .run()
    }
}
