import SQLKit
import WardenCore

public import struct Foundation.Date

/// Native-to-Web SSO (SPEC §8) over `sessions.source_family_id` (indexed) and `refresh_tokens.session_id`
/// (indexed).
extension SQLStore {
    /// In one transaction: marks the families of the refresh tokens issued within the sessions made from
    /// `familyID` revoked (each under its lock, in sorted order so that two cascades never wait on each other in a
    /// cycle; see ``revokeRefreshTokenFamily(_:at:)``), then `UPDATE refresh_tokens … WHERE session_id IN (SELECT
    /// id FROM sessions WHERE source_family_id = ?)` and `DELETE FROM sessions WHERE source_family_id = ?`: a token
    /// issued within such a session is never left live once its session ends, not even one a rotation adds
    /// meanwhile.
    public func endTransferredSessions(sourceFamilyID familyID: String, at date: Date) async throws -> Int {
        let milliseconds = date.millisecondsSince1970
        let engine = engine
        return try await transaction { db in
            let sessions = SQLSubquery.select {
                $0.column("id").from("sessions").where("source_family_id", .equal, familyID)
            }
            let families = try await db.select().distinct().column("family_id").from("refresh_tokens")
                .where("session_id", .in, sessions)
                .all(decodingColumn: "family_id", as: String.self)
            for family in families.sorted() {
                try await Self.markRevoked(family: family, at: milliseconds, on: db, engine: engine)
            }
            try await db.update("refresh_tokens")
                .set("revoked_at", to: milliseconds)
                .where("revoked_at", .is, SQLLiteral.null)
                .where("session_id", .in, sessions)
                .run()
            return try await db.delete(from: "sessions").where("source_family_id", .equal, familyID)
                .returning("id").all().count
        }
    }
}
