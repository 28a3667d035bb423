import SQLKit
public import WardenCore
import WardenWire

public import struct Foundation.Date

/// `login_challenges(id, transaction_hash, user_id, client_id, status, source, location, created_at, expires_at,
/// decided_at)`: the sign-in pushes of SPEC §12; `source` and `location` JSON text or `NULL`. Their device
/// transactions live in `device_transactions` beside those of CIBA requests, `request_id` naming the challenge.
extension SQLStore {
    /// In one transaction (PostgreSQL: under the user's advisory lock): a `SELECT count(*)` of the user's pending
    /// unexpired challenges, then the `INSERT`s of the challenge and its device transactions.
    public func insertLoginChallenge(
        _ challenge: LoginChallenge, transactions: [DeviceTransaction], pendingLimit: Int
    ) async throws -> Bool {
        let engine = engine
        let columns = try Self.columns(of: challenge)
        return try await UniqueViolation.mapped("The login challenge already exists") {
            try await transaction { db in
                if engine == .postgres {
                    try await db.raw("SELECT pg_advisory_xact_lock(hashtext(\(bind: "mfa:" + challenge.userID)))")
                        .run()
                }
                let pending =
                    try await db.select().column(SQLFunction("count", args: SQLLiteral.all), as: "n")
                    .from("login_challenges")
                    .where("user_id", .equal, challenge.userID)
                    .where("status", .equal, LoginChallenge.Status.pending.rawValue)
                    .where("expires_at", .greaterThan, challenge.createdAt.millisecondsSince1970)
                    .first(decodingColumn: "n", as: Int.self) ?? 0
                guard pending < pendingLimit else { return false }
                try await db.insert(into: "login_challenges").columns(columns.map(\.name))
                    .values(columns.map(\.value)).run()
                guard !transactions.isEmpty else { return true }
                let insert = db.insert(into: "device_transactions")
                    .columns("id", "request_id", "enrollment_id", "challenge", "created_at", "expires_at")
                for transaction in transactions {
                    insert.values(
                        transaction.id, transaction.requestID.hex, transaction.enrollmentID, transaction.challenge,
                        transaction.createdAt.millisecondsSince1970, transaction.expiresAt.millisecondsSince1970)
                }
                try await insert.run()
                return true
            }
        }
    }

    /// One `SELECT` by primary key.
    public func loginChallenge(id: LoginChallenge.ID) async throws -> LoginChallenge? {
        try await sql.select().column(SQLLiteral.all).from("login_challenges").where("id", .equal, id.hex)
            .first().map(Self.loginChallenge)
    }

    /// One `SELECT … WHERE transaction_hash = ? ORDER BY created_at DESC LIMIT 1`.
    public func latestLoginChallenge(transactionHash: String) async throws -> LoginChallenge? {
        try await sql.select().column(SQLLiteral.all).from("login_challenges")
            .where("transaction_hash", .equal, transactionHash)
            .orderBy("created_at", .descending).limit(1)
            .first().map(Self.loginChallenge)
    }

    /// One `UPDATE … WHERE id = ? AND status = 'pending' AND expires_at > now RETURNING *`; when no row changed, a
    /// `SELECT` tells why.
    public func decideLoginChallenge(id: LoginChallenge.ID, approved: Bool, at now: Date) async throws
        -> LoginChallengeDecision
    {
        let status: LoginChallenge.Status = approved ? .approved : .rejected
        let decided = try await sql.update("login_challenges")
            .set("status", to: status.rawValue)
            .set("decided_at", to: now.millisecondsSince1970)
            .where("id", .equal, id.hex)
            .where("status", .equal, LoginChallenge.Status.pending.rawValue)
            .where("expires_at", .greaterThan, now.millisecondsSince1970)
            .returning(SQLLiteral.all)
            .first()
        if let decided { return .decided(try Self.loginChallenge(decided)) }
        guard let record = try await loginChallenge(id: id) else { return .notFound }
        if record.status != .pending { return .alreadyDecided(record) }
        return .expired(record)
    }

    private static func columns(of challenge: LoginChallenge) throws -> [(
        name: String, value: any Encodable & Sendable
    )] {
        [
            ("id", challenge.id.hex),
            ("transaction_hash", challenge.transactionHash),
            ("user_id", challenge.userID),
            ("client_id", challenge.clientID),
            ("status", challenge.status.rawValue),
            ("source", try challenge.source.map { try JSONColumn.encode($0) }),
            ("location", try challenge.location.map { try JSONColumn.encode($0) }),
            ("created_at", challenge.createdAt.millisecondsSince1970),
            ("expires_at", challenge.expiresAt.millisecondsSince1970),
            ("decided_at", challenge.decidedAt?.millisecondsSince1970),
        ]
    }

    private static func loginChallenge(_ row: any SQLRow) throws -> LoginChallenge {
        let id: String = try row.value("id")
        guard let idValue = LoginChallenge.ID(hex: id) else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "Malformed id '\(id)'"))
        }
        let source = try row.value("source", as: String?.self)
        let location = try row.value("location", as: String?.self)
        return LoginChallenge(
            id: idValue, transactionHash: try row.value("transaction_hash"), userID: try row.value("user_id"),
            clientID: try row.value("client_id"), status: LoginChallenge.Status(rawValue: try row.value("status")),
            source: try source.map { try JSONValue(parsing: $0) },
            location: try location.map { try JSONValue(parsing: $0) },
            createdAt: try row.date("created_at"), expiresAt: try row.date("expires_at"),
            decidedAt: try row.optionalDate("decided_at"))
    }
}
