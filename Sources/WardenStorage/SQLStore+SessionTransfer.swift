import SQLKit
import WardenCore

public import struct Foundation.Date

/// Native-to-Web SSO (SPEC §8) over `sessions.source_family_id` (indexed) and `refresh_tokens.session_id`
/// (indexed).
extension SQLStore {
    /// `UPDATE refresh_tokens … WHERE session_id IN (SELECT id FROM sessions WHERE source_family_id = ?)`, then
    /// `DELETE FROM sessions WHERE source_family_id = ?`, in one transaction: a token issued within such a session
    /// is never left live once its session ends.
    public func endTransferredSessions(sourceFamilyID familyID: String, at date: Date) async throws -> Int {
        let milliseconds = date.millisecondsSince1970
        return try await transaction { db in
            try await db.update("refresh_tokens")
                .set("revoked_at", to: milliseconds)
                .where("revoked_at", .is, SQLLiteral.null)
                .where(
                    "session_id", .in,
                    SQLSubquery.select {
                        $0.column("id").from("sessions").where("source_family_id", .equal, familyID)
                    }
                )
                .run()
            return try await db.delete(from: "sessions").where("source_family_id", .equal, familyID)
                .returning("id").all().count
        }
    }
}
