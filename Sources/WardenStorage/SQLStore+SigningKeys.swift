import SQLKit
public import WardenCore

public import struct Foundation.Date

/// `signing_keys(kid, alg, private_key, current, created_at, current_since, revoked_at)`; a partial unique index
/// allows one current key per algorithm.
extension SQLStore {
    public func signingKeys() async throws -> [SigningKeyRecord] {
        try await sql.select().column(SQLLiteral.all).from("signing_keys").orderBy("created_at").orderBy("kid")
            .all().map(Self.signingKey)
    }

    /// In one transaction (under an advisory lock on PostgreSQL, so that nodes rotating at once queue up):
    /// demotes the current key of `record.alg` to previous, then stores `record` as current, its
    /// `current_since` defaulting to its creation. Throws ``StorageError/conflict(_:)`` when the `kid` exists.
    public func insertCurrentSigningKey(_ record: SigningKeyRecord) async throws {
        try await UniqueViolation.mapped("A signing key with kid '\(record.kid)' already exists") {
            try await transaction(lock: .signingKeys) { db in
                try await db.update("signing_keys").set("current", to: false)
                    .where("alg", .equal, record.alg.rawValue).where("current", .equal, true)
                    .run()
                try await db.insert(into: "signing_keys")
                    .columns("kid", "alg", "private_key", "current", "created_at", "current_since", "revoked_at")
                    .values(
                        record.kid, record.alg.rawValue, record.privateKey, true,
                        record.createdAt.millisecondsSince1970,
                        (record.currentSince ?? record.createdAt).millisecondsSince1970,
                        record.revokedAt?.millisecondsSince1970
                    )
                    .run()
            }
        }
    }

    /// Revokes a previous key; revoking it again keeps the first date.
    public func revokeSigningKey(kid: String, at date: Date) async throws {
        let revoked = try await sql.update("signing_keys")
            .set(
                "revoked_at",
                to: SQLFunction("COALESCE", args: SQLColumn("revoked_at"), SQLBind(date.millisecondsSince1970))
            )
            .where("kid", .equal, kid).where("current", .equal, false)
            .returning("kid").first()
        guard revoked == nil else { return }
        let isCurrent = try await sql.select().column("current").from("signing_keys").where("kid", .equal, kid)
            .first(decodingColumn: "current", as: Bool.self)
        switch isCurrent {
        case nil: throw StorageError.notFound
        case _?: throw StorageError.conflict("Signing key '\(kid)' is current; rotate before revoking it")
        }
    }

    private static func signingKey(_ row: any SQLRow) throws -> SigningKeyRecord {
        let alg: String = try row.value("alg")
        guard let algorithm = SigningAlgorithm(rawValue: alg) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: [], debugDescription: "Unknown signing algorithm '\(alg)'"))
        }
        return SigningKeyRecord(
            kid: try row.value("kid"), alg: algorithm, privateKey: try row.value("private_key"),
            current: try row.value("current"), createdAt: try row.date("created_at"),
            currentSince: try row.optionalDate("current_since"), revokedAt: try row.optionalDate("revoked_at"))
    }
}
