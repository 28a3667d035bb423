import Foundation
import HummingbirdBcrypt
import WardenCore
import WardenWire

/// Checks the login form's e-mail address and password (SPEC §5, §10, §11).
///
/// Every checked attempt costs one bcrypt verification, run on NIO's blocking thread pool, also for an unknown
/// e-mail address (against a dummy hash), so timing does not tell whether an account exists. Failures log
/// `fu` (unknown user) or `fp` (wrong password). Ten failures within 15 minutes lock password login for 15
/// minutes, logged `limit_wc` when the lock starts and for every attempt refused during it. Unknown addresses
/// are throttled the same way under a key derived from the address, so a lock does not reveal that an account
/// exists either.
///
/// SPEC §11: each attempt first reserves its place in the window atomically
/// (``LoginThrottleStore/reserveLoginAttempt(userID:at:windowStart:limit:)``), so of N concurrent wrong
/// passwords at most ten reach bcrypt and the rest are refused as locked without a hash check; a right password
/// whose check ends after a concurrent burst started the lock is refused too. A blocked user is refused with
/// the same message whatever the password (logged `f`), before any check, so the page is no password oracle.
struct PasswordAuthenticator: Sendable {
    static let maxFailures = 10
    static let failureWindow: Double = 15 * 60
    static let lockDuration: Double = 15 * 60

    /// The one message for a wrong e-mail address or password.
    static let wrongCredentials = "Wrong e-mail address or password."
    static let lockedMessage = "Too many failed sign-in attempts. Try again in 15 minutes."
    static let blockedMessage = "This account is blocked. Contact the administrator."

    /// Who is trying, for the log.
    struct Attempt: Sendable {
        var email: String
        var password: String
        var client: Client
        var ip: String?
        var userAgent: String?
    }

    enum Outcome: Sendable {
        case authenticated(UserRecord)
        /// Refused, with the message the form shows.
        case refused(String)
    }

    /// The users, their failed attempts and locks.
    let store: any UserStore & LoginThrottleStore
    let eventLog: EventLog
    let clock: any WardenClock
    /// Verified when the e-mail address is unknown, at the configured cost.
    private let dummyHash: String

    /// An authenticator of the users of `store`, logging attempts to `eventLog`; `bcryptCost` is the cost of
    /// the stored hashes (`--bcrypt-cost`), so an unknown address costs as much as a known one.
    init(store: any UserStore & LoginThrottleStore, eventLog: EventLog, clock: any WardenClock, bcryptCost: UInt8) {
        self.store = store
        self.eventLog = eventLog
        self.clock = clock
        self.dummyHash = Bcrypt.hash(RandomToken.make(), cost: bcryptCost)
    }

    func authenticate(_ attempt: Attempt) async throws -> Outcome {
        let record = try await store.user(email: attempt.email)
        if let record, record.user.blocked {
            log(.loginFailure, "user is blocked", attempt, userID: record.user.userID)
            return .refused(Self.blockedMessage)
        }
        let throttleKey = record?.user.userID ?? "email|" + SecretHash.sha256Hex(attempt.email.lowercased())
        let now = clock.now()
        guard
            case .reserved(let ordinal) = try await store.reserveLoginAttempt(
                userID: throttleKey, at: now, windowStart: now.addingTimeInterval(-Self.failureWindow),
                limit: Self.maxFailures)
        else { return refusedAsLocked(attempt, userID: record?.user.userID) }
        // Imported hashes are kept as given (SPEC §9 "Bulk users"): `$2y$` is checked as the `$2b$` it equals.
        let hash = BcryptHash.verifiable(record?.passwordHash ?? dummyHash)
        let password = attempt.password
        let matches = try await PasswordHashing.verify(password, hash: hash)
        guard let record, record.passwordHash != nil else {
            log(.unknownUser, "Wrong email or password.", attempt, userID: nil)
            return try await failed(attempt, ordinal: ordinal, throttleKey: throttleKey, userID: nil)
        }
        guard matches else {
            log(.wrongPassword, "Wrong email or password.", attempt, userID: record.user.userID)
            return try await failed(attempt, ordinal: ordinal, throttleKey: throttleKey, userID: record.user.userID)
        }
        // A lock started by failures that ended while this check ran is in force: it wins.
        if try await store.loginLockedUntil(userID: throttleKey, now: clock.now()) != nil {
            return refusedAsLocked(attempt, userID: record.user.userID)
        }
        try await store.clearLoginFailures(userID: throttleKey)
        return .authenticated(record)
    }

    /// An attempt refused during a lock, without a password check (`limit_wc`).
    private func refusedAsLocked(_ attempt: Attempt, userID: String?) -> Outcome {
        log(.accountLocked, "Login refused: too many failed attempts", attempt, userID: userID)
        return .refused(Self.lockedMessage)
    }

    /// A failed check, already counted by its reservation: the tenth in the window starts the lock.
    private func failed(_ attempt: Attempt, ordinal: Int, throttleKey: String, userID: String?) async throws
        -> Outcome
    {
        guard ordinal >= Self.maxFailures else { return .refused(Self.wrongCredentials) }
        let now = clock.now()
        try await store.lockLogin(userID: throttleKey, until: now.addingTimeInterval(Self.lockDuration))
        log(.accountLocked, "Too many failed login attempts: login locked for 15 minutes", attempt, userID: userID)
        return .refused(Self.lockedMessage)
    }

    private func log(_ type: LogEventType, _ description: String, _ attempt: Attempt, userID: String?) {
        eventLog.record(
            LogEvent(
                date: clock.now(), type: type, description: description, clientID: attempt.client.clientID,
                clientName: attempt.client.name, ip: attempt.ip, userAgent: attempt.userAgent, userID: userID,
                userName: attempt.email, details: ["connection": .string(Connection.databaseName)]))
    }
}
