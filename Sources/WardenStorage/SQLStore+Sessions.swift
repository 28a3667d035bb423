import SQLKit
public import WardenCore

public import struct Foundation.Date

/// `sessions(id, secret_hash, user_id, created_at, auth_time, last_active_at, expires_at, idle_expires_at,
/// method, source_family_id, amr)`: SSO sessions, found by the hash of their cookie secret or by their public id;
/// `amr` is the methods' values separated by spaces (SPEC §12).
extension SQLStore {
    /// Throws ``StorageError/conflict(_:)`` when the id or the secret hash exists.
    public func insertSession(_ session: Session, secretHash: String) async throws {
        try await UniqueViolation.mapped("The session already exists") {
            try await sql.insert(into: "sessions")
                .columns(["id", "secret_hash", "created_at"] + Self.sessionColumns(session).map(\.name))
                .values(
                    [session.id, secretHash, session.createdAt.millisecondsSince1970]
                        + Self.sessionColumns(session).map(\.value)
                )
                .run()
        }
    }

    public func session(secretHash: String) async throws -> Session? {
        try await sql.select().column(SQLLiteral.all).from("sessions").where("secret_hash", .equal, secretHash)
            .first().map(Self.session)
    }

    public func session(id: String) async throws -> Session? {
        try await sql.select().column(SQLLiteral.all).from("sessions").where("id", .equal, id)
            .first().map(Self.session)
    }

    /// Replaces everything but the id, the secret hash and `created_at`, which keep their stored values.
    public func updateSession(_ session: Session) async throws {
        let update = sql.update("sessions")
        for column in Self.sessionColumns(session) {
            update.set(column.name, to: column.value)
        }
        guard try await update.where("id", .equal, session.id).returning("id").first() != nil else {
            throw StorageError.notFound
        }
    }

    public func deleteSession(id: String) async throws -> Bool {
        try await sql.delete(from: "sessions").where("id", .equal, id).returning("id").first() != nil
    }

    public func deleteSessions(sourceFamilyID: String) async throws -> Int {
        try await sql.delete(from: "sessions").where("source_family_id", .equal, sourceFamilyID)
            .returning("id").all().count
    }

    /// The columns of a session besides `id`, `secret_hash` and `created_at`, which never change.
    private static func sessionColumns(_ session: Session) -> [(name: String, value: any Encodable & Sendable)] {
        [
            ("user_id", session.userID),
            ("auth_time", session.authTime.millisecondsSince1970),
            ("last_active_at", session.lastActiveAt.millisecondsSince1970),
            ("expires_at", session.expiresAt.millisecondsSince1970),
            ("idle_expires_at", session.idleExpiresAt.millisecondsSince1970),
            ("method", session.method),
            ("source_family_id", session.sourceFamilyID),
            ("amr", AuthenticationMethod.text(session.amr)),
        ]
    }

    private static func session(_ row: any SQLRow) throws -> Session {
        Session(
            id: try row.value("id"), userID: try row.value("user_id"), createdAt: try row.date("created_at"),
            authTime: try row.date("auth_time"), lastActiveAt: try row.date("last_active_at"),
            expiresAt: try row.date("expires_at"), idleExpiresAt: try row.date("idle_expires_at"),
            method: try row.value("method"), sourceFamilyID: try row.value("source_family_id"),
            amr: AuthenticationMethod.list(try row.value("amr", as: String.self)))
    }
}
