public import struct Foundation.Date

/// The users' WebAuthn credentials (SPEC §17): passkeys and second-factor keys.
public protocol WebAuthnCredentialStore: Sendable {
    /// Stores `credential` unless its credential ID is registered already or its user has `limit` credentials of
    /// its kind, atomically across nodes (two registrations of one credential ID: one is stored).
    func insertWebAuthnCredential(_ credential: WebAuthnCredential, limit: Int) async throws
        -> WebAuthnCredentialInsert
    /// Creates the database user `record` and its first credential (a passkey sign-up), in one transaction:
    /// neither is stored when either cannot be (`StorageError.conflict` for a user id or e-mail in use,
    /// ``WebAuthnCredentialInsert/duplicateCredential`` for a credential ID in use).
    func insertUser(_ record: UserRecord, credential: WebAuthnCredential) async throws -> WebAuthnCredentialInsert
    /// The credential with this credential ID, whoever owns it.
    func webAuthnCredential(credentialID: [UInt8]) async throws -> WebAuthnCredential?
    /// The user's credentials, oldest first.
    func webAuthnCredentials(userID: String) async throws -> [WebAuthnCredential]
    /// Records a verified assertion: the new counter and flags, and the time, only if the stored counter is still
    /// `expectedSignCount` (a compare-and-set: of two assertions racing with one counter value, one is recorded).
    /// Whether it was.
    func recordWebAuthnAssertion(
        id: String, expectedSignCount: UInt32, signCount: UInt32, backupEligible: Bool, backedUp: Bool, at: Date
    ) async throws -> Bool
    /// Renames the user's credential `id`; whether it exists.
    func renameWebAuthnCredential(id: String, userID: String, name: String) async throws -> Bool
    /// Deletes the user's credential `id`; whether it existed.
    func deleteWebAuthnCredential(id: String, userID: String) async throws -> Bool
}
