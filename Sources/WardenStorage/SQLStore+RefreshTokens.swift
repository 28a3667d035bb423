import SQLKit
public import WardenCore
import WardenWire

public import struct Foundation.Date

/// `refresh_tokens(token_hash, family_id, client_id, user_id, audience, scope, authorization_details, session_id,
/// created_at, expires_at, used_at, revoked_at, organization_id)`: `scope` is a JSON array of strings, `authorization_details`
/// JSON text or `NULL`; a token without `expires_at` does not expire.
extension SQLStore {
    /// Throws ``StorageError/conflict(_:)`` when a token with this hash exists, ``StorageError/revoked`` when its
    /// family is in `refresh_token_families`. One transaction holding the family's lock
    /// (``KeyedAdvisoryLock/refreshTokenFamily``) reads the mark, then inserts: a revocation either comes first (and this insert
    /// fails) or waits for this one (and revokes the new token too).
    public func insertRefreshToken(_ record: RefreshTokenRecord) async throws {
        let scope = try JSONColumn.encode(record.scope)
        let authorizationDetails = try record.authorizationDetails.map { try JSONColumn.encode($0) }
        let engine = engine
        try await UniqueViolation.mapped("The refresh token already exists") {
            try await transaction { db in
                try await Self.lock(.refreshTokenFamily, key: record.familyID, on: db, engine: engine)
                let revoked = try await db.select().column(SQLLiteral.numeric("1")).from("refresh_token_families")
                    .where("family_id", .equal, record.familyID).first()
                guard revoked == nil else { throw StorageError.revoked }
                try await db.insert(into: "refresh_tokens")
                    .columns(
                        "token_hash", "family_id", "client_id", "user_id", "audience", "scope",
                        "authorization_details", "session_id", "created_at", "expires_at", "used_at", "revoked_at",
                        "organization_id"
                    )
                    .values(
                        record.tokenHash, record.familyID, record.clientID, record.userID, record.audience, scope,
                        authorizationDetails, record.sessionID, record.createdAt.millisecondsSince1970,
                        record.expiresAt?.millisecondsSince1970, record.usedAt?.millisecondsSince1970,
                        record.revokedAt?.millisecondsSince1970, record.organizationID
                    )
                    .run()
            }
        }
    }

    /// Rotating: one `UPDATE … SET used_at = now WHERE used_at IS NULL AND revoked_at IS NULL AND (expires_at IS
    /// NULL OR expires_at > now) RETURNING *`, so the database lets exactly one of concurrent callers mark the
    /// token used; when no row changed, a `SELECT` tells why (revoked, then expired, then already used).
    /// Non-rotating: a `SELECT`; a live token is valid however often it is used.
    public func useRefreshToken(hash: String, rotating: Bool, now: Date) async throws -> RefreshTokenUse {
        let nowMilliseconds = now.millisecondsSince1970
        if rotating {
            let marked = try await sql.update("refresh_tokens")
                .set("used_at", to: nowMilliseconds)
                .where("token_hash", .equal, hash)
                .where("used_at", .is, SQLLiteral.null)
                .where("revoked_at", .is, SQLLiteral.null)
                .where {
                    $0.where("expires_at", .is, SQLLiteral.null).orWhere("expires_at", .greaterThan, nowMilliseconds)
                }
                .returning(SQLLiteral.all)
                .first()
            if let marked { return .valid(try Self.refreshToken(marked)) }
        }

        guard let record = try await refreshToken(hash: hash) else { return .notFound }
        let use = record.nonRotatingUse(at: now)
        guard rotating, case .valid = use else { return use }
        if record.usedAt != nil { return .reused(record) }
        // Stored between the UPDATE and the SELECT: try again (the row exists now, so this ends).
        return try await useRefreshToken(hash: hash, rotating: rotating, now: now)
    }

    /// In one transaction holding the family's lock (see ``insertRefreshToken(_:)``): records the family in
    /// `refresh_token_families` (kept with its first date), then sets `revoked_at` on every token of the family
    /// not revoked yet (a token revoked earlier keeps its date), so that any of them presented again is
    /// ``RefreshTokenUse/revoked`` and no successor can be added; returns how many of those were live at `date`
    /// (unused and unexpired).
    public func revokeRefreshTokenFamily(_ familyID: String, at date: Date) async throws -> Int {
        let milliseconds = date.millisecondsSince1970
        let engine = engine
        return try await transaction { db in
            try await Self.markRevoked(family: familyID, at: milliseconds, on: db, engine: engine)
            return try await db.update("refresh_tokens")
                .set("revoked_at", to: milliseconds)
                .where("family_id", .equal, familyID)
                .where("revoked_at", .is, SQLLiteral.null)
                .returning("used_at", "expires_at")
                .all()
                .filter { row in
                    try row.optionalDate("used_at") == nil
                        && (try row.decode(column: "expires_at", as: Int64?.self)).map { $0 > milliseconds } ?? true
                }
                .count
        }
    }

    /// Inside a transaction: takes the family's lock and records the family in `refresh_token_families` (a
    /// family recorded earlier keeps its date), so that no token can be added to it any more.
    static func markRevoked(
        family familyID: String, at milliseconds: Int64, on db: any SQLDatabase, engine: SQLEngineKind
    )
        async throws
    {
        try await lock(.refreshTokenFamily, key: familyID, on: db, engine: engine)
        try await db.insert(into: "refresh_token_families").columns("family_id", "revoked_at")
            .values(familyID, milliseconds).ignoringConflicts(with: "family_id").run()
    }

    public func refreshToken(hash: String) async throws -> RefreshTokenRecord? {
        try await sql.select().column(SQLLiteral.all).from("refresh_tokens").where("token_hash", .equal, hash)
            .first().map(Self.refreshToken)
    }

    /// `SELECT refresh_tokens.*, users.* (as user_…), sessions.auth_time … LEFT JOIN users … LEFT JOIN
    /// sessions`: the refresh grant's three reads in one statement.
    public func refreshTokenContext(hash: String) async throws -> RefreshTokenContext? {
        guard let row = try await sql.raw("\(unsafeRaw: Self.refreshTokenContextQuery)\(bind: hash)").first() else {
            return nil
        }
        let user = PrefixedSQLRow(base: row, prefix: Self.joinedUserPrefix)
        return RefreshTokenContext(
            token: try Self.refreshToken(row),
            user: try user.decodeNil(column: "user_id") ? nil : Self.userRecord(user),
            sessionAuthTime: try row.optionalDate("session_auth_time"),
            sessionAMR: try row.value("session_amr", as: String?.self).map(AuthenticationMethod.list) ?? [])
    }

    /// The prefix of the `users` columns in ``refreshTokenContext(hash:)`` (both tables have `user_id` and
    /// `created_at`).
    private static let joinedUserPrefix = "user_"

    /// ``refreshTokenContext(hash:)`` up to its bind, as text made once (the same in both dialects): SQLKit's
    /// builder took longer to serialize the 16 aliased columns, on every request, than SQLite took to run the
    /// query (a `perf` profile of the refresh benchmark).
    private static let refreshTokenContextQuery: String = {
        let users = userColumnNames.map { "users.\($0) AS \(joinedUserPrefix)\($0)" }.joined(separator: ", ")
        return "SELECT refresh_tokens.*, sessions.auth_time AS session_auth_time, sessions.amr AS session_amr, \(users)"
            + " FROM refresh_tokens"
            + " LEFT JOIN users ON users.user_id = refresh_tokens.user_id"
            + " LEFT JOIN sessions ON sessions.id = refresh_tokens.session_id WHERE refresh_tokens.token_hash = "
    }()

    private static func refreshToken(_ row: any SQLRow) throws -> RefreshTokenRecord {
        let authorizationDetails = try row.value("authorization_details", as: String?.self)
        return RefreshTokenRecord(
            tokenHash: try row.value("token_hash"), familyID: try row.value("family_id"),
            clientID: try row.value("client_id"), userID: try row.value("user_id"),
            audience: try row.value("audience"), scope: try row.json("scope"),
            authorizationDetails: try authorizationDetails.map { try JSONValue(parsing: $0) },
            sessionID: try row.value("session_id"), createdAt: try row.date("created_at"),
            expiresAt: try row.optionalDate("expires_at"), usedAt: try row.optionalDate("used_at"),
            revokedAt: try row.optionalDate("revoked_at"), organizationID: try row.value("organization_id"))
    }
}
