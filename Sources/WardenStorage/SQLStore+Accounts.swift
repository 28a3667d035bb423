import SQLKit
public import WardenCore

public import struct Foundation.Date

/// `password_history(seq, user_id, password_hash, created_at)`: the passwords a database user has had, newest
/// with the greatest `seq` (SPEC §15.1 `password_history`); and what a password reset ends, in the tables of
/// sessions, refresh tokens and login locks.
extension SQLStore {
    /// Inserts the hash, then deletes the user's rows older than the newest `keep`, in one transaction.
    public func recordPassword(userID: String, hash: String, at date: Date, keep: Int) async throws {
        try await transaction { db in
            try await db.insert(into: "password_history").columns("user_id", "password_hash", "created_at")
                .values(userID, hash, date.millisecondsSince1970).run()
            let kept = db.select().column("seq").from("password_history").where("user_id", .equal, userID)
                .orderBy("seq", .descending).limit(max(keep, 0))
            try await db.delete(from: "password_history").where("user_id", .equal, userID)
                .where(SQLColumn("seq"), .notIn, SQLGroupExpression(kept.select)).run()
        }
    }

    public func passwordHistory(userID: String, limit: Int) async throws -> [String] {
        try await sql.select().column("password_hash").from("password_history").where("user_id", .equal, userID)
            .orderBy("seq", .descending).limit(limit)
            .all(decodingColumn: "password_hash", as: String.self)
    }

    public func deleteSessions(userID: String) async throws -> Int {
        try await sql.delete(from: "sessions").where("user_id", .equal, userID).returning("id").all().count
    }

    /// `SELECT DISTINCT family_id, client_id FROM refresh_tokens WHERE user_id = ? AND revoked_at IS NULL`.
    public func liveRefreshTokenFamilies(userID: String) async throws -> [RefreshTokenFamily] {
        try await sql.select().distinct().column("family_id").column("client_id").from("refresh_tokens")
            .where("user_id", .equal, userID).where("revoked_at", .is, SQLLiteral.null)
            .orderBy("family_id")
            .all()
            .map {
                RefreshTokenFamily(
                    familyID: try $0.decode(column: "family_id", as: String.self),
                    clientID: try $0.decode(column: "client_id", as: String.self))
            }
    }

    public func unlockLogin(userID: String) async throws {
        try await transaction { db in
            try await db.delete(from: "login_failures").where("user_id", .equal, userID).run()
            try await db.delete(from: "login_locks").where("user_id", .equal, userID).run()
        }
    }
}
