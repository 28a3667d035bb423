import SQLKit
public import WardenCore

public import struct Foundation.Date

/// A user's second factors besides push devices' keys (SPEC §12):
/// `otp_authenticators(id, user_id, name, secret, created_at, last_auth_at)`, OTP-only authenticator apps;
/// `otp_steps(user_id, last_step)`, the last TOTP time step accepted for the user (replay protection);
/// `otp_failures(user_id, at)` and `otp_locks(user_id, locked_until)`, the OTP throttle;
/// `recovery_codes(user_id, code_hash, created_at)`, one recovery code per user, by SHA-256.
extension SQLStore {
    public func insertOTPAuthenticator(_ authenticator: OTPAuthenticator) async throws {
        try await UniqueViolation.mapped("The authenticator '\(authenticator.id)' already exists") {
            try await sql.insert(into: "otp_authenticators")
                .columns("id", "user_id", "name", "secret", "created_at", "last_auth_at")
                .values(
                    authenticator.id, authenticator.userID, authenticator.name, authenticator.secret,
                    authenticator.createdAt.millisecondsSince1970, authenticator.lastAuthAt?.millisecondsSince1970
                )
                .run()
        }
    }

    /// One `SELECT … WHERE user_id = ? ORDER BY created_at, id`.
    public func otpAuthenticators(userID: String) async throws -> [OTPAuthenticator] {
        try await sql.select().column(SQLLiteral.all).from("otp_authenticators").where("user_id", .equal, userID)
            .orderBy("created_at").orderBy("id")
            .all().map(Self.otpAuthenticator)
    }

    /// One `SELECT` by primary key.
    public func otpAuthenticator(id: String) async throws -> OTPAuthenticator? {
        try await sql.select().column(SQLLiteral.all).from("otp_authenticators").where("id", .equal, id)
            .first().map(Self.otpAuthenticator)
    }

    /// One `DELETE … RETURNING id`.
    public func deleteOTPAuthenticator(id: String) async throws -> Bool {
        try await sql.delete(from: "otp_authenticators").where("id", .equal, id).returning("id").first() != nil
    }

    private static func otpAuthenticator(_ row: any SQLRow) throws -> OTPAuthenticator {
        OTPAuthenticator(
            id: try row.value("id"), userID: try row.value("user_id"), name: try row.value("name"),
            secret: try row.value("secret"), createdAt: try row.date("created_at"),
            lastAuthAt: try row.optionalDate("last_auth_at"))
    }

    public func markAuthenticatorUsed(id: String, at date: Date) async throws {
        try await Self.markUsed(id: id, at: date, on: sql)
    }

    /// One transaction holding the user's ``KeyedAdvisoryLock/otpThrottle`` (`BEGIN IMMEDIATE` on SQLite): reads
    /// the lock in force; with a match, `INSERT INTO otp_steps … ON CONFLICT (user_id) DO UPDATE SET last_step = …
    /// WHERE otp_steps.last_step < excluded.last_step RETURNING user_id` — a conditional write that no second use of
    /// a step can pass even without the lock — then forgets the failures; without one, drops the failures before the
    /// window, counts the others, records this one and, at the limit, locks.
    public func recordOTPAttempt(userID: String, match: OTPMatch?, at date: Date, throttle: OTPThrottle)
        async throws -> OTPAttemptResult
    {
        let now = date.millisecondsSince1970
        let engine = engine
        return try await transaction { db in
            try await Self.lock(.otpThrottle, key: userID, on: db, engine: engine)
            if let lockedUntil = try await db.select().column("locked_until").from("otp_locks")
                .where("user_id", .equal, userID).where("locked_until", .greaterThan, now)
                .first(decodingColumn: "locked_until", as: Int64.self)
            {
                return .locked(until: Date(millisecondsSince1970: lockedUntil))
            }
            guard let match else {
                return try await Self.recordWrongCode(userID: userID, at: date, throttle: throttle, on: db)
            }
            let stored = try await db.raw(
                """
                INSERT INTO otp_steps (user_id, last_step) VALUES (\(bind: userID), \(bind: match.step))
                ON CONFLICT (user_id) DO UPDATE SET last_step = excluded.last_step
                WHERE otp_steps.last_step < excluded.last_step
                RETURNING user_id
                """
            ).first()
            guard stored != nil else { return .replayed }
            try await db.delete(from: "otp_failures").where("user_id", .equal, userID).run()
            try await Self.markUsed(id: match.authenticatorID, at: date, on: db)
            return .accepted
        }
    }

    /// Inside ``recordOTPAttempt(userID:match:at:throttle:)``: numbers a wrong code within the window and locks at
    /// the limit.
    private static func recordWrongCode(
        userID: String, at date: Date, throttle: OTPThrottle, on db: any SQLDatabase
    ) async throws -> OTPAttemptResult {
        let now = date.millisecondsSince1970
        let windowStart = date.addingTimeInterval(-throttle.window).millisecondsSince1970
        try await db.delete(from: "otp_failures").where("user_id", .equal, userID)
            .where("at", .lessThanOrEqual, windowStart).run()
        let earlier =
            try await db.select().column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n").from("otp_failures")
            .where("user_id", .equal, userID).first(decodingColumn: "n", as: Int.self) ?? 0
        try await db.insert(into: "otp_failures").columns("user_id", "at").values(userID, now).run()
        let ordinal = earlier + 1
        if ordinal >= throttle.limit {
            let until = date.addingTimeInterval(throttle.lockDuration).millisecondsSince1970
            try await db.insert(into: "otp_locks").columns("user_id", "locked_until").values(userID, until)
                .onConflict(with: "user_id") { $0.set(excludedValueOf: "locked_until") }
                .run()
            try await db.delete(from: "otp_failures").where("user_id", .equal, userID).run()
        }
        return .wrong(ordinal: ordinal)
    }

    /// `UPDATE … SET last_auth_at` in whichever table holds the authenticator `id`.
    private static func markUsed(id: String, at date: Date, on db: any SQLDatabase) async throws {
        for table in ["device_enrollments", "otp_authenticators"] {
            try await db.update(table).set("last_auth_at", to: date.millisecondsSince1970).where("id", .equal, id)
                .run()
        }
    }

    /// One `SELECT` by primary key.
    public func recoveryCodeHash(userID: String) async throws -> String? {
        try await sql.select().column("code_hash").from("recovery_codes").where("user_id", .equal, userID)
            .first(decodingColumn: "code_hash", as: String.self)
    }

    /// `INSERT … ON CONFLICT (user_id) DO UPDATE`.
    public func setRecoveryCode(userID: String, hash: String, at date: Date) async throws {
        try await sql.insert(into: "recovery_codes").columns("user_id", "code_hash", "created_at")
            .values(userID, hash, date.millisecondsSince1970)
            .onConflict(with: "user_id") { $0.set(excludedValueOf: "code_hash").set(excludedValueOf: "created_at") }
            .run()
    }

    /// One `UPDATE … WHERE user_id = ? AND code_hash = ? RETURNING user_id`.
    public func replaceRecoveryCode(userID: String, expectedHash: String, newHash: String, at date: Date)
        async throws -> Bool
    {
        try await sql.update("recovery_codes").set("code_hash", to: newHash)
            .set("created_at", to: date.millisecondsSince1970)
            .where("user_id", .equal, userID).where("code_hash", .equal, expectedHash)
            .returning("user_id").first() != nil
    }

    /// In one transaction: `DELETE` of the transactions of the user's devices, of the devices, of the OTP-only
    /// authenticators (`RETURNING id`, counted) and of the recovery code.
    public func deleteAuthenticators(userID: String) async throws -> Int {
        try await transaction { db in
            try await db.raw(
                """
                DELETE FROM device_transactions WHERE enrollment_id IN (
                    SELECT id FROM device_enrollments WHERE user_id = \(bind: userID))
                """
            ).run()
            var removed = 0
            for table in ["device_enrollments", "otp_authenticators"] {
                removed += try await db.delete(from: table).where("user_id", .equal, userID).returning("id").all()
                    .count
            }
            // Security keys are second factors; passkeys are a first factor and stay (SPEC §17).
            removed += try await db.delete(from: "webauthn_credentials").where("user_id", .equal, userID)
                .where("kind", .notEqual, WebAuthnCredential.Kind.passkey.rawValue).returning("id").all().count
            try await db.delete(from: "recovery_codes").where("user_id", .equal, userID).run()
            return removed
        }
    }
}
