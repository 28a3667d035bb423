import WardenCore
import WardenWire

/// The user's recovery code (SPEC §12 `recovery-code`): issued (shown once, stored hashed) and redeemed — single
/// use, replaced by a new one in the same conditional write, so of concurrent uses of one code exactly one wins.
struct RecoveryCodes: Sendable {
    let store: any AuthenticatorStore
    let clock: any WardenClock

    /// What redeeming a typed code did.
    enum Redemption: Sendable, Equatable {
        /// Accepted and used up; `newCode` replaces it (shown to the user at once).
        case accepted(newCode: String)
        /// Not the user's code (or the user has none, or a concurrent use took it).
        case rejected
    }

    /// A new code for `userID`, replacing any; the caller shows it once.
    func issue(userID: String) async throws -> String {
        let code = RecoveryCode.generate()
        try await store.setRecoveryCode(userID: userID, hash: RecoveryCode.hash(code), at: clock.now())
        return code
    }

    /// Redeems `typed`: compared with the stored hash in constant time, then swapped for a new code atomically.
    func redeem(_ typed: String, userID: String) async throws -> Redemption {
        guard let stored = try await store.recoveryCodeHash(userID: userID),
            SecretHash.constantTimeEquals(RecoveryCode.hash(typed), stored)
        else { return .rejected }
        let code = RecoveryCode.generate()
        let replaced = try await store.replaceRecoveryCode(
            userID: userID, expectedHash: stored, newHash: RecoveryCode.hash(code), at: clock.now())
        return replaced ? .accepted(newCode: code) : .rejected
    }
}
