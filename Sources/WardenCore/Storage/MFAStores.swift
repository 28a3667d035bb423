public import struct Foundation.Date

/// The tenant's MFA settings (SPEC §12): which factors are enabled and the policy.
public protocol MFASettingsStore: Sendable {
    /// The enabled factors; a factor never set is disabled.
    func enabledMFAFactors() async throws -> Set<MFAFactor>
    /// Enables or disables one factor (an upsert).
    func setMFAFactor(_ factor: MFAFactor, enabled: Bool) async throws
    /// The policy list, `[]` when never set.
    func mfaPolicies() async throws -> [MFAPolicy]
    /// Replaces the policy list, in one transaction.
    func setMFAPolicies(_ policies: [MFAPolicy]) async throws
    /// The settings of a WebAuthn factor (SPEC §17); the defaults when never set.
    func webAuthnFactorSettings(_ factor: MFAFactor) async throws -> WebAuthnFactorSettings
    /// Replaces the settings of a WebAuthn factor (an upsert that leaves `enabled` as it is).
    func setWebAuthnFactorSettings(_ settings: WebAuthnFactorSettings, for factor: MFAFactor) async throws
}

/// The second factors of a user besides push devices' keys (SPEC §12): OTP-only authenticators, the OTP replay and
/// lockout state, the recovery code.
public protocol AuthenticatorStore: Sendable {
    /// Stores an OTP-only authenticator; throws ``StorageError/conflict(_:)`` when the id exists.
    func insertOTPAuthenticator(_ authenticator: OTPAuthenticator) async throws
    /// The user's OTP-only authenticators, oldest first.
    func otpAuthenticators(userID: String) async throws -> [OTPAuthenticator]
    func otpAuthenticator(id: String) async throws -> OTPAuthenticator?
    /// Deletes one OTP-only authenticator; `false` when it did not exist.
    func deleteOTPAuthenticator(id: String) async throws -> Bool
    /// Records that the authenticator `id` (a device enrolment or an OTP-only authenticator) just proved the user.
    func markAuthenticatorUsed(id: String, at date: Date) async throws
    /// Settles one OTP attempt of `userID` at `date`, atomically across connections and nodes:
    /// ``OTPAttemptResult/locked(until:)`` while a lock is in force, whatever `match`; else, with a `match`, a
    /// conditional write of its step as the user's last used one — ``OTPAttemptResult/accepted`` (the user's wrong
    /// codes forgotten, the authenticator marked used) when the step is later than the last used one,
    /// ``OTPAttemptResult/replayed`` otherwise, so of N concurrent uses of one code exactly one is accepted; without a
    /// match, the wrong code is recorded and numbered within `throttle.window`, and the one numbered
    /// `throttle.limit` locks OTP for `throttle.lockDuration`: of N concurrent wrong codes with none before, exactly
    /// `limit` are ``OTPAttemptResult/wrong(ordinal:)`` and the others locked.
    func recordOTPAttempt(userID: String, match: OTPMatch?, at date: Date, throttle: OTPThrottle) async throws
        -> OTPAttemptResult
    /// The SHA-256 (hex) of the user's recovery code, if they have one.
    func recoveryCodeHash(userID: String) async throws -> String?
    /// Sets the user's recovery code (replacing any), by hash.
    func setRecoveryCode(userID: String, hash: String, at date: Date) async throws
    /// Consumes the recovery code hashing to `expectedHash` and stores its successor in one conditional write:
    /// `false` when the user's code is no longer that one, so of N concurrent uses of one code exactly one wins.
    func replaceRecoveryCode(userID: String, expectedHash: String, newHash: String, at date: Date) async throws -> Bool
    /// Removes every enrolment of the user (devices with their transactions, OTP-only authenticators, security
    /// keys — not passkeys, a first factor) and the recovery code, in one transaction; returns how many enrolments
    /// there were.
    func deleteAuthenticators(userID: String) async throws -> Int
}

/// The user's recent successful logins, what the `confidence-score` policy compares a login with (SPEC §12).
public protocol RecentLoginStore: Sendable {
    /// Appends a login and drops the user's older ones beyond the newest `keep`, in one transaction.
    func recordSuccessfulLogin(_ login: RecentLogin, keep: Int) async throws
    /// The user's kept logins, newest first.
    func recentLogins(userID: String) async throws -> [RecentLogin]
}

/// Sign-in pushes (SPEC §12): ``LoginChallenge`` records and their decision.
public protocol LoginChallengeStore: Sendable {
    /// Stores `challenge` and the device transactions that carry it (one per push device), all or none — unless
    /// `pendingLimit` of the user's challenges already wait at its creation time (push fatigue, SPEC §12), counted in
    /// the same transaction: then nothing is stored and the answer is `false`.
    func insertLoginChallenge(_ challenge: LoginChallenge, transactions: [DeviceTransaction], pendingLimit: Int)
        async throws -> Bool
    func loginChallenge(id: LoginChallenge.ID) async throws -> LoginChallenge?
    /// The newest challenge sent for the login transaction whose `state` hashes to `transactionHash`.
    func latestLoginChallenge(transactionHash: String) async throws -> LoginChallenge?
    /// Approves or rejects a pending, unexpired challenge in one conditional write; of concurrent callers exactly
    /// one gets ``LoginChallengeDecision/decided(_:)``.
    func decideLoginChallenge(id: LoginChallenge.ID, approved: Bool, at now: Date) async throws
        -> LoginChallengeDecision
}
