public import Foundation
import SQLKit
public import WardenCore
import WardenWire

/// `webauthn_credentials(id, user_id, kind, credential_id, public_key, sign_count, aaguid, rp_id, transports,
/// backup_eligible, backed_up, name, user_agent, created_at, last_auth_at)` (SPEC §17).
extension SQLStore {
    /// In one transaction, under the user's lock on PostgreSQL: whether the credential ID is taken, the count of
    /// the user's credentials of that kind, then the `INSERT`; a credential ID registered by another node at the
    /// same moment is caught by the unique index.
    public func insertWebAuthnCredential(_ credential: WebAuthnCredential, limit: Int) async throws
        -> WebAuthnCredentialInsert
    {
        let engine = engine
        do {
            return try await transaction { db in
                try await Self.lock(.webAuthnCredentials, key: credential.userID, on: db, engine: engine)
                if try await Self.credentialExists(credential.credentialID, on: db) { return .duplicateCredential }
                let count =
                    try await db.select().column(SQLFunction("count", args: SQLLiteral.all), as: "n")
                    .from("webauthn_credentials")
                    .where("user_id", .equal, credential.userID).where("kind", .equal, credential.kind.rawValue)
                    .first(decodingColumn: "n", as: Int.self) ?? 0
                guard count < limit else { return .limitReached }
                try await Self.insert(credential, on: db)
                return .inserted
            }
        } catch  where UniqueViolation.matches(error) {
            return .duplicateCredential
        }
    }

    /// The user's `INSERT` (with its search fields) and the credential's, in one transaction.
    public func insertUser(_ record: UserRecord, credential: WebAuthnCredential) async throws
        -> WebAuthnCredentialInsert
    {
        let columns = Self.userColumns(record)
        do {
            return try await transaction { db in
                if try await Self.credentialExists(credential.credentialID, on: db) { return .duplicateCredential }
                try await db.insert(into: "users")
                    .columns(["user_id", "created_at"] + columns.map(\.name))
                    .values([record.user.userID, record.user.createdAt.millisecondsSince1970] + columns.map(\.value))
                    .run()
                try await self.writeSearchProjection(for: [record.user.userID], on: db)
                try await Self.insert(credential, on: db)
                return .inserted
            }
        } catch  where UniqueViolation.matches(error) {
            if try await webAuthnCredential(credentialID: credential.credentialID) != nil {
                return .duplicateCredential
            }
            throw StorageError.conflict(
                "The user already exists (user_id '\(record.user.userID)', or a database user has its e-mail address)")
        }
    }

    public func webAuthnCredential(credentialID: [UInt8]) async throws -> WebAuthnCredential? {
        try await reads.select().column(SQLLiteral.all).from("webauthn_credentials")
            .where("credential_id", .equal, Base64URL.encode(credentialID))
            .first().map(Self.webAuthnCredential)
    }

    public func webAuthnCredentials(userID: String) async throws -> [WebAuthnCredential] {
        try await reads.select().column(SQLLiteral.all).from("webauthn_credentials")
            .where("user_id", .equal, userID).orderBy("created_at").orderBy("id")
            .all().map(Self.webAuthnCredential)
    }

    /// One `UPDATE … WHERE id = ? AND sign_count = ?`.
    public func recordWebAuthnAssertion(
        id: String, expectedSignCount: UInt32, signCount: UInt32, backupEligible: Bool, backedUp: Bool, at: Date
    ) async throws -> Bool {
        try await sql.update("webauthn_credentials")
            .set("sign_count", to: Int64(signCount))
            .set("backup_eligible", to: backupEligible)
            .set("backed_up", to: backedUp)
            .set("last_auth_at", to: at.millisecondsSince1970)
            .where("id", .equal, id).where("sign_count", .equal, Int64(expectedSignCount))
            .returning("id").first() != nil
    }

    public func renameWebAuthnCredential(id: String, userID: String, name: String) async throws -> Bool {
        try await sql.update("webauthn_credentials").set("name", to: name)
            .where("id", .equal, id).where("user_id", .equal, userID)
            .returning("id").first() != nil
    }

    public func deleteWebAuthnCredential(id: String, userID: String) async throws -> Bool {
        try await sql.delete(from: "webauthn_credentials")
            .where("id", .equal, id).where("user_id", .equal, userID)
            .returning("id").first() != nil
    }

    private static func credentialExists(_ credentialID: [UInt8], on db: any SQLDatabase) async throws -> Bool {
        try await db.select().column("id").from("webauthn_credentials")
            .where("credential_id", .equal, Base64URL.encode(credentialID)).first() != nil
    }

    private static func insert(_ credential: WebAuthnCredential, on db: any SQLDatabase) async throws {
        let transports = JSONValue.array(credential.transports.map(JSONValue.string)).serialized
        try await db.insert(into: "webauthn_credentials")
            .columns(
                "id", "user_id", "kind", "credential_id", "public_key", "sign_count", "aaguid", "rp_id", "transports",
                "backup_eligible", "backed_up", "name", "user_agent", "created_at", "last_auth_at"
            )
            .values(
                SQLBind(credential.id), SQLBind(credential.userID), SQLBind(credential.kind.rawValue),
                SQLBind(Base64URL.encode(credential.credentialID)), SQLBind(Base64URL.encode(credential.publicKey)),
                SQLBind(Int64(credential.signCount)), SQLBind(credential.aaguid.uuidString.lowercased()),
                SQLBind(credential.relyingPartyID),
                SQLBind(transports), SQLBind(credential.backupEligible), SQLBind(credential.backedUp),
                SQLBind(credential.name), SQLBind(credential.userAgent),
                SQLBind(credential.createdAt.millisecondsSince1970),
                SQLBind(credential.lastAuthAt?.millisecondsSince1970)
            )
            .run()
    }

    static func webAuthnCredential(_ row: any SQLRow) throws -> WebAuthnCredential {
        let invalid = DecodingError.dataCorrupted(
            .init(codingPath: [], debugDescription: "A webauthn_credentials row does not decode"))
        guard let credentialID = Base64URL.decode(try row.value("credential_id", as: String.self)),
            let publicKey = Base64URL.decode(try row.value("public_key", as: String.self)),
            let aaguid = UUID(uuidString: try row.value("aaguid", as: String.self)),
            let signCount = UInt32(exactly: try row.value("sign_count", as: Int64.self))
        else { throw invalid }
        var credential = WebAuthnCredential(
            id: try row.value("id"), userID: try row.value("user_id"),
            kind: .init(rawValue: try row.value("kind")), credentialID: Array(credentialID),
            publicKey: Array(publicKey), signCount: signCount, aaguid: aaguid, relyingPartyID: try row.value("rp_id"),
            createdAt: try row.date("created_at"))
        let transports = try JSONValue(parsing: try row.value("transports", as: String.self))
        credential.transports = (transports.arrayValue ?? []).compactMap(\.stringValue)
        credential.backupEligible = try row.value("backup_eligible")
        credential.backedUp = try row.value("backed_up")
        credential.name = try row.value("name")
        credential.userAgent = try row.value("user_agent")
        credential.lastAuthAt = try row.optionalDate("last_auth_at")
        return credential
    }
}
