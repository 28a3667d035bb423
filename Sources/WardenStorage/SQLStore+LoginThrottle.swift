import SQLKit
public import WardenCore

public import struct Foundation.Date

/// `login_failures(user_id, at)`: one row per failed password login, kept while inside the window;
/// `login_locks(user_id, locked_until)`: one row per locked user.
extension SQLStore {
    /// One transaction holding the user's lock (``KeyedAdvisoryLock/loginThrottle``; `BEGIN IMMEDIATE` on
    /// SQLite): reads the lock in force, deletes the user's failures older than `windowStart`, counts the others,
    /// and inserts this attempt when there are fewer than `limit`. The count and the insert cannot interleave
    /// with another attempt's, so no more than `limit` attempts ever reach the password check (SPEC §11).
    public func reserveLoginAttempt(userID: String, at date: Date, windowStart: Date, limit: Int) async throws
        -> LoginAttemptReservation
    {
        let windowStart = windowStart.millisecondsSince1970
        let now = date.millisecondsSince1970
        let engine = engine
        return try await transaction { db in
            try await Self.lock(.loginThrottle, key: userID, on: db, engine: engine)
            let locked = try await db.select().column("locked_until").from("login_locks")
                .where("user_id", .equal, userID).where("locked_until", .greaterThan, now).first()
            guard locked == nil else { return .locked }
            try await db.delete(from: "login_failures")
                .where("user_id", .equal, userID).where("at", .lessThan, windowStart)
                .run()
            let recorded = try await self.count(
                from: "login_failures",
                where: Self.allOf([
                    Self.equals("user_id", userID),
                    SQLBinaryExpression(SQLColumn("at"), .greaterThanOrEqual, SQLBind(windowStart)),
                ]),
                on: db)
            guard recorded < limit else { return .locked }
            try await db.insert(into: "login_failures").columns("user_id", "at").values(userID, now).run()
            return .reserved(ordinal: recorded + 1)
        }
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
