import SQLKit
public import WardenCore

public import struct Foundation.Date

/// `device_enrollments(id, user_id, identifier, name, push_service, push_token, push_disabled, public_key_n,
/// public_key_e, token_hash, totp_secret, created_at, last_auth_at)`: authenticator devices, unique by `token_hash` and by
/// `(user_id, identifier)`; `push_service` and `push_token` are both `NULL` for a device without push credentials.
/// `device_transactions(id, request_id, enrollment_id, challenge, created_at, expires_at)`: one CIBA request as sent
/// to one device (unique per pair), found by the id its `txtkn` names.
extension SQLStore {
    /// The conflict of an enrolment whose `identifier` the user already has (SPEC §7.1 409 `already_enrolled`).
    static let deviceAlreadyEnrolled = "already_enrolled"

    /// One `INSERT`. On a unique violation, one `SELECT` of the user's `identifier` tells which key was taken:
    /// ``StorageError/conflict(_:)`` with `already_enrolled` when the user has a device with this identifier
    /// (committed, since the violation is only raised once the other row is), else a conflict on the id or token hash.
    public func insertDeviceEnrollment(_ enrollment: DeviceEnrollment) async throws {
        let columns = Self.columns(of: enrollment)
        do {
            try await UniqueViolation.mapped("The device enrollment '\(enrollment.id)' or its token already exists") {
                try await sql.insert(into: "device_enrollments").columns(columns.map(\.name))
                    .values(columns.map(\.value))
                    .run()
            }
        } catch StorageError.conflict(let message) {
            let taken = try await sql.select().column("id").from("device_enrollments")
                .where("user_id", .equal, enrollment.userID).where("identifier", .equal, enrollment.identifier)
                .first()
            throw StorageError.conflict(taken != nil ? Self.deviceAlreadyEnrolled : message)
        }
    }

    /// One `SELECT` by primary key.
    public func deviceEnrollment(id: String) async throws -> DeviceEnrollment? {
        try await sql.select().column(SQLLiteral.all).from("device_enrollments").where("id", .equal, id)
            .first().map(Self.deviceEnrollment)
    }

    /// One `SELECT` by the unique `token_hash`.
    public func deviceEnrollment(tokenHash: String) async throws -> DeviceEnrollment? {
        try await sql.select().column(SQLLiteral.all).from("device_enrollments").where("token_hash", .equal, tokenHash)
            .first().map(Self.deviceEnrollment)
    }

    /// One `SELECT` on the `UNIQUE (user_id, identifier)` index.
    public func deviceEnrollment(userID: String, identifier: String) async throws -> DeviceEnrollment? {
        try await sql.select().column(SQLLiteral.all).from("device_enrollments").where("user_id", .equal, userID)
            .where("identifier", .equal, identifier).first().map(Self.deviceEnrollment)
    }

    /// One `SELECT … WHERE user_id = ? ORDER BY created_at, id`.
    public func deviceEnrollments(userID: String) async throws -> [DeviceEnrollment] {
        try await sql.select().column(SQLLiteral.all).from("device_enrollments").where("user_id", .equal, userID)
            .orderBy("created_at").orderBy("id")
            .all().map(Self.deviceEnrollment)
    }

    /// One `UPDATE … WHERE id = ? RETURNING id` of the mutable columns; no row is ``StorageError/notFound``. The
    /// update cannot change the id, user or token hash, so a unique violation is always the user's `identifier`:
    /// ``StorageError/conflict(_:)`` with `already_enrolled`.
    public func updateDeviceEnrollment(_ enrollment: DeviceEnrollment) async throws {
        let updated = try await UniqueViolation.mapped(Self.deviceAlreadyEnrolled) {
            try await sql.update("device_enrollments")
                .set("identifier", to: enrollment.identifier)
                .set("name", to: enrollment.name)
                .set("push_service", to: enrollment.pushCredentials?.service.rawValue)
                .set("push_token", to: enrollment.pushCredentials?.token)
                .set("push_disabled", to: enrollment.pushDisabled)
                .where("id", .equal, enrollment.id)
                .returning("id")
                .first()
        }
        guard updated != nil else { throw StorageError.notFound }
    }

    /// In one transaction: `DELETE` of the device's transactions, then of the enrolment (`RETURNING id`).
    public func deleteDeviceEnrollment(id: String) async throws -> Bool {
        try await transaction { db in
            try await db.delete(from: "device_transactions").where("enrollment_id", .equal, id).run()
            return try await db.delete(from: "device_enrollments").where("id", .equal, id).returning("id").first()
                != nil
        }
    }

    /// One `SELECT 1 … WHERE user_id = ? AND push_service IS NOT NULL LIMIT 1`: a device whose push token was
    /// disabled still counts (SPEC §6.1).
    public func hasPushEnrolledDevice(userID: String) async throws -> Bool {
        try await sql.select().column(SQLLiteral.numeric("1"), as: "present").from("device_enrollments")
            .where("user_id", .equal, userID).where("push_service", .isNot, SQLLiteral.null)
            .limit(1)
            .first() != nil
    }

    /// Multi-row `INSERT`s of at most ``SQLStore/rowsPerInsert`` rows in one transaction: all or none. Throws
    /// ``StorageError/conflict(_:)``, having inserted nothing, when an id or a (request, device) pair exists or
    /// repeats.
    public func insertDeviceTransactions(_ transactions: [DeviceTransaction]) async throws {
        guard !transactions.isEmpty else { return }
        try await UniqueViolation.mapped("The device transaction already exists") {
            try await insertRows(
                into: "device_transactions",
                columns: ["id", "request_id", "enrollment_id", "challenge", "created_at", "expires_at"],
                transactions
            ) { transaction in
                [
                    transaction.id, transaction.requestID.hex, transaction.enrollmentID, transaction.challenge,
                    transaction.createdAt.millisecondsSince1970, transaction.expiresAt.millisecondsSince1970,
                ]
            }
        }
    }

    /// One `SELECT` by primary key.
    public func deviceTransaction(id: String) async throws -> DeviceTransaction? {
        try await sql.select().column(SQLLiteral.all).from("device_transactions").where("id", .equal, id)
            .first().map(Self.deviceTransaction)
    }

    /// One `SELECT device_transactions.* … LEFT JOIN ciba_requests … LEFT JOIN login_challenges … WHERE
    /// enrollment_id = ? AND (the CIBA request or the sign-in push is pending and unexpired) ORDER BY created_at, id`.
    public func pendingDeviceTransactions(enrollmentID: String, now: Date) async throws -> [DeviceTransaction] {
        try await sql.raw(
            """
            SELECT t.* FROM device_transactions t
            LEFT JOIN ciba_requests c ON c.id = t.request_id
            LEFT JOIN login_challenges l ON l.id = t.request_id
            WHERE t.enrollment_id = \(bind: enrollmentID) AND (
                (c.status = \(bind: BackchannelRequest.Status.pending.rawValue)
                    AND c.expires_at > \(bind: now.millisecondsSince1970))
                OR (l.status = \(bind: LoginChallenge.Status.pending.rawValue)
                    AND l.expires_at > \(bind: now.millisecondsSince1970)))
            ORDER BY t.created_at, t.id
            """
        ).all().map(Self.deviceTransaction)
    }

    /// Every column of an enrolment, as stored.
    private static func columns(of enrollment: DeviceEnrollment) -> [(name: String, value: any Encodable & Sendable)] {
        [
            ("id", enrollment.id),
            ("user_id", enrollment.userID),
            ("identifier", enrollment.identifier),
            ("name", enrollment.name),
            ("push_service", enrollment.pushCredentials?.service.rawValue),
            ("push_token", enrollment.pushCredentials?.token),
            ("push_disabled", enrollment.pushDisabled),
            ("public_key_n", enrollment.publicKeyModulus),
            ("public_key_e", enrollment.publicKeyExponent),
            ("token_hash", enrollment.tokenHash),
            ("totp_secret", enrollment.totpSecret),
            ("created_at", enrollment.createdAt.millisecondsSince1970),
            ("last_auth_at", enrollment.lastAuthAt?.millisecondsSince1970),
        ]
    }

    private static func deviceEnrollment(_ row: any SQLRow) throws -> DeviceEnrollment {
        let service = try row.value("push_service", as: String?.self)
        let token = try row.value("push_token", as: String?.self)
        let pushCredentials = service.map {
            DeviceEnrollment.PushCredentials(service: PushService(rawValue: $0), token: token ?? "")
        }
        return DeviceEnrollment(
            id: try row.value("id"), userID: try row.value("user_id"), identifier: try row.value("identifier"),
            name: try row.value("name"), pushCredentials: pushCredentials, pushDisabled: try row.value("push_disabled"),
            publicKeyModulus: try row.value("public_key_n"), publicKeyExponent: try row.value("public_key_e"),
            tokenHash: try row.value("token_hash"), totpSecret: try row.value("totp_secret"),
            createdAt: try row.date("created_at"), lastAuthAt: try row.optionalDate("last_auth_at"))
    }

    private static func deviceTransaction(_ row: any SQLRow) throws -> DeviceTransaction {
        let requestID: String = try row.value("request_id")
        guard let requestIDValue = BackchannelRequest.ID(hex: requestID) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: [], debugDescription: "Malformed request_id '\(requestID)'"))
        }
        return DeviceTransaction(
            id: try row.value("id"), requestID: requestIDValue,
            enrollmentID: try row.value("enrollment_id"), challenge: try row.value("challenge"),
            createdAt: try row.date("created_at"), expiresAt: try row.date("expires_at"))
    }
}
