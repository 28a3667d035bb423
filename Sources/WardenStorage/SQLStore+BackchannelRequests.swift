import SQLKit
public import WardenCore
import WardenWire

public import struct Foundation.Date

/// `ciba_requests(id, consent_id, client_id, user_id, scope, audience, binding_message, authorization_details,
/// channel, approval_token_hash, ping, status, created_at, expires_at, decided_at)`: CIBA requests, found by the
/// hash of their `auth_req_id`, by their consent id or by the hash of their e-mail approval token. `scope` is a
/// JSON array of strings, `authorization_details` and `ping` JSON text or `NULL`.
extension SQLStore {
    /// In one transaction: takes the user's lock — on PostgreSQL the transaction-scoped advisory lock
    /// `pg_advisory_xact_lock(hashtext('ciba:' || user_id))`, on SQLite the write lock of `BEGIN IMMEDIATE` on
    /// the one serialized connection — then reads the `created_at` of the user's requests in the window and
    /// inserts unless there are `limit` of them. Concurrent inserts for one user queue on that lock, and each
    /// reads after the previous one committed (on PostgreSQL a statement's snapshot is taken after the lock is
    /// granted), so the count never misses one. Throws ``StorageError/conflict(_:)`` when the id, the consent id
    /// or the approval token hash exists.
    /// The request's `deliveryJobs` are inserted after it, in the same transaction.
    public func insertBackchannelRequest(
        _ request: BackchannelRequest, limit: Int, window: Double, deliveryJobs: [DeliveryJob]
    ) async throws -> BackchannelInsertResult {
        precondition(limit > 0, "the per-user limit must allow at least one request")
        let windowMilliseconds = Int64((window * 1000).rounded())
        let windowStart = request.createdAt.millisecondsSince1970 - windowMilliseconds
        let columns = try Self.columns(of: request)
        let engine = engine
        return try await UniqueViolation.mapped("The CIBA request already exists") {
            try await transaction { db in
                if engine == .postgres {
                    // hashtext is 32-bit: never one of the fixed keys of ``AdvisoryLock`` (all above 2^32); two
                    // users whose keys collide merely queue behind each other.
                    try await db.raw("SELECT pg_advisory_xact_lock(hashtext(\(bind: "ciba:" + request.userID)))")
                        .run()
                }
                let inWindow = try await db.select().column("created_at").from("ciba_requests")
                    .where("user_id", .equal, request.userID).where("created_at", .greaterThan, windowStart)
                    .orderBy("created_at")
                    .all(decodingColumn: "created_at", as: Int64.self)
                if inWindow.count >= limit {
                    // It fits once the oldest `count - limit + 1` have left the window, the last of them at retryAt.
                    let leaving = inWindow[inWindow.count - limit]
                    return .limited(retryAt: Date(millisecondsSince1970: leaving + windowMilliseconds))
                }
                try await db.insert(into: "ciba_requests").columns(columns.map(\.name))
                    .values(columns.map(\.value))
                    .run()
                try await Self.insert(deliveryJobs, on: db)
                return .inserted
            }
        }
    }

    /// One `SELECT` by primary key.
    public func backchannelRequest(id: BackchannelRequest.ID) async throws -> BackchannelRequest? {
        try await backchannelRequest(where: "id", equals: id.hex)
    }

    /// One `SELECT` by the unique `approval_token_hash`.
    public func backchannelRequest(approvalTokenHash: String) async throws -> BackchannelRequest? {
        try await backchannelRequest(where: "approval_token_hash", equals: approvalTokenHash)
    }

    /// One `SELECT` by the unique `consent_id`.
    public func backchannelRequest(consentID: String) async throws -> BackchannelRequest? {
        try await backchannelRequest(where: "consent_id", equals: consentID)
    }

    /// One `UPDATE … SET status = 'approved' | 'denied', decided_at = now WHERE id = ? AND status = 'pending' AND
    /// expires_at > now RETURNING *`: the database lets exactly one of concurrent callers change the row. When
    /// no row changed, a `SELECT` tells why: decided (or redeemed) before, expired while pending, or unknown.
    public func decideBackchannelRequest(id: BackchannelRequest.ID, approved: Bool, at now: Date) async throws
        -> BackchannelDecision
    {
        let nowMilliseconds = now.millisecondsSince1970
        let status: BackchannelRequest.Status = approved ? .approved : .denied
        let decided = try await sql.update("ciba_requests")
            .set("status", to: status.rawValue)
            .set("decided_at", to: nowMilliseconds)
            .where("id", .equal, id.hex)
            .where("status", .equal, BackchannelRequest.Status.pending.rawValue)
            .where("expires_at", .greaterThan, nowMilliseconds)
            .returning(SQLLiteral.all)
            .first()
        if let decided { return .decided(try Self.backchannelRequest(decided)) }

        guard let record = try await backchannelRequest(id: id) else { return .notFound }
        if record.status != .pending { return .alreadyDecided(record) }
        if record.expiresAt.millisecondsSince1970 <= nowMilliseconds { return .expired(record) }
        // Stored between the UPDATE and the SELECT: try again (the row exists now, so this ends).
        return try await decideBackchannelRequest(id: id, approved: approved, at: now)
    }

    /// One `UPDATE … SET status = 'redeemed' WHERE id = ? AND client_id = ? AND status = 'approved' AND
    /// expires_at > now RETURNING *`: the database lets exactly one of concurrent callers change the row. When
    /// no row changed, a `SELECT` returns the record to tell why — except for another client's request, which is
    /// refused with `nil` like an unknown one, so a client learns nothing about requests it does not own.
    public func redeemBackchannelRequest(id: BackchannelRequest.ID, clientID: String, at now: Date) async throws
        -> BackchannelRedemption
    {
        let nowMilliseconds = now.millisecondsSince1970
        let redeemed = try await sql.update("ciba_requests")
            .set("status", to: BackchannelRequest.Status.redeemed.rawValue)
            .where("id", .equal, id.hex)
            .where("client_id", .equal, clientID)
            .where("status", .equal, BackchannelRequest.Status.approved.rawValue)
            .where("expires_at", .greaterThan, nowMilliseconds)
            .returning(SQLLiteral.all)
            .first()
        if let redeemed { return .redeemed(try Self.backchannelRequest(redeemed)) }

        guard let record = try await backchannelRequest(id: id), record.clientID == clientID else {
            return .refused(nil)
        }
        if record.status == .approved, record.expiresAt.millisecondsSince1970 > nowMilliseconds {
            // Approved between the UPDATE and the SELECT: try again (it can only be redeemed now, so this ends).
            return try await redeemBackchannelRequest(id: id, clientID: clientID, at: now)
        }
        return .refused(record)
    }

    private func backchannelRequest(where column: String, equals value: String) async throws -> BackchannelRequest? {
        try await sql.select().column(SQLLiteral.all).from("ciba_requests").where(column, .equal, value)
            .first().map(Self.backchannelRequest)
    }

    /// Every column of a request, as stored.
    private static func columns(of request: BackchannelRequest) throws
        -> [(name: String, value: any Encodable & Sendable)]
    {
        [
            ("id", request.id.hex),
            ("consent_id", request.consentID),
            ("client_id", request.clientID),
            ("user_id", request.userID),
            ("scope", try JSONColumn.encode(request.scope)),
            ("audience", request.audience),
            ("binding_message", request.bindingMessage),
            ("authorization_details", try request.authorizationDetails.map { try JSONColumn.encode($0) }),
            ("channel", request.channel.rawValue),
            ("approval_token_hash", request.approvalTokenHash),
            ("ping", try request.ping.map { try JSONColumn.encode($0) }),
            ("status", request.status.rawValue),
            ("created_at", request.createdAt.millisecondsSince1970),
            ("expires_at", request.expiresAt.millisecondsSince1970),
            ("decided_at", request.decidedAt?.millisecondsSince1970),
        ]
    }

    static func backchannelRequest(_ row: any SQLRow) throws -> BackchannelRequest {
        let channel: String = try row.value("channel")
        guard let channelValue = BackchannelRequest.Channel(rawValue: channel) else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "Unknown channel '\(channel)'"))
        }
        let id: String = try row.value("id")
        guard let idValue = BackchannelRequest.ID(hex: id) else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "Malformed id '\(id)'"))
        }
        let status: String = try row.value("status")
        guard let statusValue = BackchannelRequest.Status(rawValue: status) else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "Unknown status '\(status)'"))
        }
        let authorizationDetails = try row.value("authorization_details", as: String?.self)
        let ping = try row.value("ping", as: String?.self)
        return BackchannelRequest(
            id: idValue, consentID: try row.value("consent_id"), clientID: try row.value("client_id"),
            userID: try row.value("user_id"), scope: try row.json("scope"), audience: try row.value("audience"),
            bindingMessage: try row.value("binding_message"),
            authorizationDetails: try authorizationDetails.map { try JSONValue(parsing: $0) },
            channel: channelValue, approvalTokenHash: try row.value("approval_token_hash"),
            ping: try ping.map { try JSONColumn.decode(BackchannelRequest.Ping.self, from: $0) },
            status: statusValue, createdAt: try row.date("created_at"), expiresAt: try row.date("expires_at"),
            decidedAt: try row.optionalDate("decided_at"))
    }
}
