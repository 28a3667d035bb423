import SQLKit
public import WardenCore

public import struct Foundation.Date

/// `artefacts(kind, hash, payload, expires_at, consumed_at)`: single-use values stored by hash.
extension SQLStore {
    /// Throws ``StorageError/conflict(_:)`` when an artefact of `kind` with this hash exists.
    public func putArtefact(kind: String, hash: String, payload: String, expiresAt: Date) async throws {
        try await UniqueViolation.mapped("The \(kind) artefact already exists") {
            try await sql.insert(into: "artefacts").columns("kind", "hash", "payload", "expires_at")
                .values(kind, hash, payload, expiresAt.millisecondsSince1970)
                .run()
        }
    }

    /// One `UPDATE … WHERE consumed_at IS NULL AND expires_at > now RETURNING payload`: the database lets exactly
    /// one of concurrent callers change the row. When no row changed, a `SELECT` tells why.
    public func consumeArtefact(kind: String, hash: String, now: Date) async throws -> ConsumeResult {
        let nowMilliseconds = now.millisecondsSince1970
        let consumed = try await sql.update("artefacts")
            .set("consumed_at", to: nowMilliseconds)
            .where("kind", .equal, kind).where("hash", .equal, hash)
            .where("consumed_at", .is, SQLLiteral.null)
            .where("expires_at", .greaterThan, nowMilliseconds)
            .returning("payload")
            .first(decodingColumn: "payload", as: String.self)
        if let consumed { return .consumed(payload: consumed) }

        guard
            let row = try await sql.select().columns("payload", "expires_at", "consumed_at").from("artefacts")
                .where("kind", .equal, kind).where("hash", .equal, hash).first()
        else { return .notFound }
        if try row.optionalDate("consumed_at") != nil {
            return .alreadyConsumed(payload: try row.value("payload"))
        }
        if try row.value("expires_at", as: Int64.self) <= nowMilliseconds {
            return .expired
        }
        // Stored between the UPDATE and the SELECT: try again (the row exists now, so this ends).
        return try await consumeArtefact(kind: kind, hash: hash, now: now)
    }

    /// A plain `SELECT`: the row is left as it is.
    public func peekArtefact(kind: String, hash: String, now: Date) async throws -> String? {
        try await sql.select().column("payload").from("artefacts")
            .where("kind", .equal, kind).where("hash", .equal, hash)
            .where("consumed_at", .is, SQLLiteral.null)
            .where("expires_at", .greaterThan, now.millisecondsSince1970)
            .first(decodingColumn: "payload", as: String.self)
    }

    /// `INSERT … ON CONFLICT DO NOTHING RETURNING hash`: `true` for exactly one of concurrent callers. The row
    /// is marked consumed at once; it stays (a replay is still seen) until purged after `expiresAt`.
    public func rememberOnce(kind: String, hash: String, expiresAt: Date) async throws -> Bool {
        try await sql.insert(into: "artefacts").columns("kind", "hash", "payload", "expires_at", "consumed_at")
            .values(kind, hash, "", expiresAt.millisecondsSince1970, Date().millisecondsSince1970)
            .ignoringConflicts()
            .returning("hash")
            .first() != nil
    }
}
