import Foundation
import HummingbirdBcrypt
import NIOPosix
import WardenCore

/// Checks the login form's e-mail address and password (SPEC §5, §10).
///
/// Every attempt costs one bcrypt verification, run on NIO's blocking thread pool, also for an unknown
/// e-mail address (against a dummy hash), so timing does not tell whether an account exists. Failures log
/// `fu` (unknown user) or `fp` (wrong password); a blocked user logs `f`. Ten failures within 15 minutes lock
/// password login for 15 minutes, logged `limit_wc` when the lock starts and for every attempt refused
/// during it. Unknown addresses are throttled the same way under a key derived from the address, so a lock
/// does not reveal that an account exists either.
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

    let runtime: WardenRuntime
    /// Verified when the e-mail address is unknown, at the configured cost.
    private let dummyHash: String

    init(runtime: WardenRuntime) {
        self.runtime = runtime
        self.dummyHash = Bcrypt.hash(RandomToken.make(), cost: runtime.configuration.bcryptCost)
    }

    func authenticate(_ attempt: Attempt) async throws -> Outcome {
        let store = runtime.store
        let record = try await store.user(email: attempt.email)
        let throttleKey = record?.user.userID ?? "email|" + SecretHash.sha256Hex(attempt.email.lowercased())
        if try await store.loginLockedUntil(userID: throttleKey, now: runtime.clock.now()) != nil {
            log(.accountLocked, "Login refused: too many failed attempts", attempt, userID: record?.user.userID)
            return .refused(Self.lockedMessage)
        }
        let hash = record?.passwordHash ?? dummyHash
        let password = attempt.password
        let matches = try await NIOThreadPool.singleton.runIfActive { Bcrypt.verify(password, hash: hash) }
        guard let record, record.passwordHash != nil else {
            log(.unknownUser, "Wrong email or password.", attempt, userID: nil)
            return try await failed(attempt, throttleKey: throttleKey, userID: nil)
        }
        guard matches else {
            log(.wrongPassword, "Wrong email or password.", attempt, userID: record.user.userID)
            return try await failed(attempt, throttleKey: throttleKey, userID: record.user.userID)
        }
        guard !record.user.blocked else {
            log(.loginFailure, "user is blocked", attempt, userID: record.user.userID)
            return .refused(Self.blockedMessage)
        }
        try await store.clearLoginFailures(userID: throttleKey)
        return .authenticated(record)
    }

    /// Counts a failure and starts the lock at the tenth within the window.
    private func failed(_ attempt: Attempt, throttleKey: String, userID: String?) async throws -> Outcome {
        let now = runtime.clock.now()
        let failures = try await runtime.store.recordLoginFailure(
            userID: throttleKey, at: now, windowStart: now.addingTimeInterval(-Self.failureWindow))
        guard failures >= Self.maxFailures else { return .refused(Self.wrongCredentials) }
        try await runtime.store.lockLogin(userID: throttleKey, until: now.addingTimeInterval(Self.lockDuration))
        log(.accountLocked, "Too many failed login attempts: login locked for 15 minutes", attempt, userID: userID)
        return .refused(Self.lockedMessage)
    }

    private func log(_ type: LogEventType, _ description: String, _ attempt: Attempt, userID: String?) {
        runtime.eventLog.record(
            LogEvent(
                date: runtime.clock.now(), type: type, description: description, clientID: attempt.client.clientID,
                clientName: attempt.client.name, ip: attempt.ip, userAgent: attempt.userAgent, userID: userID,
                userName: attempt.email, details: ["connection": .string(User.connection)]))
    }
}
