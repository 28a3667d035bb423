import Foundation
import WardenCore
import WardenWire

/// The accounts of the database connection (SPEC §15.1): sign-up, e-mail verification, password reset, and the
/// one check of a new password that sign-up, reset and the Management API share. The hosted pages,
/// `/dbconnections/*`, the Management API and the console all come here, so each rule is written once.
///
/// Tickets (the links of the e-mails and of the Management API's tickets) are ``AccountTicket``s: 256 random
/// bits, stored as their SHA-256, single use. Every outcome is logged: `ss`/`fs` (sign-up), `sv`/`fv`
/// (verification), `scpr`/`fcpr` (reset request), `scp`/`fcp` (password change).
struct AccountService: Sendable {
    typealias Store = UserStore & ConnectionStore & ArtefactStore & AccountStore & WebAuthnCredentialStore

    /// A verification link works for 5 days, a reset link for 5 minutes, unless a Management ticket says
    /// otherwise (`ttl_sec`, at most 30 days).
    static let verificationLifetime: Double = 5 * 86_400
    static let resetLifetime: Double = 300
    static let maximumTicketLifetime = 2_592_000
    /// How many password hashes the history keeps per user: the largest `password_history.size`.
    static let historyKept = PasswordPolicy.maximumHistorySize

    let store: any Store
    /// Ends the user's refresh-token families (with their access tokens) after a reset.
    let familyRevocation: RefreshTokenFamilyRevocation
    let deliveries: DeliveryService
    let limits: AccountLimits
    /// Where a ticket's `result_url` is checked against the clients' callbacks.
    let tenant: TenantCache
    let eventLog: EventLog
    let clock: any WardenClock
    /// `{issuer}`, with its trailing slash: the base of every link.
    let issuer: String
    let bcryptCost: UInt8

    /// Who asks, for the limits and the log.
    struct Caller: Sendable {
        var clientID: String?
        var clientName: String?
        var ip: String?
        var userAgent: String?
    }

    // MARK: - The database connection's settings

    /// The options of `Username-Password-Authentication` that accounts read.
    struct Settings: Sendable {
        var signupDisabled: Bool
        var policy: PasswordPolicy
        /// The passkey policy of the same options (SPEC §17).
        var passkeys: PasskeyPolicy
    }

    /// The database connection's `disable_signup` and password policy, read from storage (the options were
    /// checked when they were stored; the default policy stands in should they not read).
    func settings() async throws -> Settings {
        let options = try await store.connection(id: Connection.databaseID)?.options ?? Connection.database.options
        return Settings(
            signupDisabled: options["disable_signup"]?.boolValue ?? false,
            policy: (try? PasswordPolicy(options: options)) ?? PasswordPolicy(),
            passkeys: PasskeyPolicy(options: options))
    }

    /// Whether the database connection is enabled for the client (it is for every client unless an operator
    /// turned it off).
    func isDatabaseEnabled(for clientID: String) async throws -> Bool {
        try await store.connections(enabledFor: clientID).contains(where: \.isDatabase)
    }

    // MARK: - The one check of a new password

    /// Why `password` may not become the password of `user`, or nil (SPEC §15.1): the policy's rules (strength,
    /// dictionary, personal information), then, with `password_history` on, the user's last `size` passwords —
    /// their current one (`currentHash`) included —, each a bcrypt check. Sign-up, reset and the Management API
    /// all ask here.
    func violation(
        of password: String, for user: User, currentHash: String?, policy: PasswordPolicy
    ) async throws -> PasswordPolicy.Violation? {
        let person = PasswordPolicy.PersonalInfo(email: user.email, name: user.name, nickname: user.nickname)
        if let violation = policy.check(password, personalInfo: person) { return violation }
        guard let size = policy.historySize else { return nil }
        var hashes = try await store.passwordHistory(userID: user.userID, limit: size)
        if let currentHash, !hashes.contains(currentHash) { hashes = [currentHash] + hashes.prefix(size - 1) }
        for hash in hashes where try await PasswordHashing.verify(password, hash: BcryptHash.verifiable(hash)) {
            return PasswordPolicy.historyViolation()
        }
        return nil
    }

    /// The bcrypt hash of a password already checked.
    func hash(_ password: String) async throws -> String {
        try await PasswordHashing.hash(password, cost: bcryptCost)
    }

    /// Records `hash`, just stored as the user's password, in their history.
    func remember(_ hash: String, of userID: String) async throws {
        try await store.recordPassword(userID: userID, hash: hash, at: clock.now(), keep: Self.historyKept)
    }

    // MARK: - Sign-up

    /// What a person gives to sign up (`/u/signup`, `POST /dbconnections/signup`).
    struct SignUp: Sendable {
        var email: String
        var password: String
        var name: String?
        var givenName: String?
        var familyName: String?
        var nickname: String?
        var picture: String?
        var userMetadata: [String: JSONValue] = [:]
        /// Set by an organization's invitation (SPEC §19 `app_metadata`).
        var appMetadata: [String: JSONValue] = [:]
    }

    /// Why a sign-up made no account (each logged `fs`).
    enum SignUpRefusal: Error, Sendable {
        /// `disable_signup` is on.
        case disabled
        /// The caller's IP signed up 10 times within the hour (failed attempts included).
        case tooMany(retryAfter: Int)
        /// The e-mail address cannot be one.
        case invalidEmail
        case invalidPassword(PasswordPolicy.Violation)
        /// The address has an account: said only as "Invalid sign up", like any other refusal of the address.
        case invalidSignup
    }

    /// Creates the database user `request` describes, records its password, mails the verification link and logs
    /// `ss`; a refusal is logged `fs` and thrown as a ``SignUpRefusal``. The password is hashed before the insert
    /// whether or not the address is taken, so the answer's timing does not tell either.
    func signUp(_ request: SignUp, from caller: Caller) async throws -> UserRecord {
        let email = request.email.trimmingCharacters(in: .whitespaces).lowercased()
        do {
            let settings = try await settings()
            guard !settings.signupDisabled else { throw SignUpRefusal.disabled }
            if let retryAfter = limits.signups.admit(caller.ip ?? "unknown") {
                throw SignUpRefusal.tooMany(retryAfter: retryAfter)
            }
            guard EmailAddress.isValid(email) else { throw SignUpRefusal.invalidEmail }
            let now = clock.now()
            var user = User(userID: User.generatedID(now: now), email: email, createdAt: now)
            let fullName = [request.givenName, request.familyName].compactMap { $0 }.joined(separator: " ")
            user.name = request.name ?? (fullName.isEmpty ? nil : fullName)
            user.givenName = request.givenName
            user.familyName = request.familyName
            user.nickname = request.nickname
            user.picture = request.picture
            user.userMetadata = request.userMetadata
            user.appMetadata = request.appMetadata
            if let violation = try await self.violation(
                of: request.password, for: user, currentHash: nil, policy: settings.policy)
            {
                throw SignUpRefusal.invalidPassword(violation)
            }
            let record = UserRecord(user: user, passwordHash: try await hash(request.password))
            do {
                try await store.insertUser(record)
            } catch StorageError.conflict {
                throw SignUpRefusal.invalidSignup
            }
            try await remember(record.passwordHash!, of: user.userID)
            log(.signupSucceeded, "Successful signup", user: user, caller)
            try await sendVerificationEmail(to: user, caller: caller)
            return record
        } catch let refusal as SignUpRefusal {
            log(.signupFailed, Self.describe(refusal), userID: nil, email: email, caller)
            throw refusal
        }
    }

    static func describe(_ refusal: SignUpRefusal) -> String {
        switch refusal {
        case .disabled: "Sign-up is disabled"
        case .tooMany: "Too many sign-ups from this IP address"
        case .invalidEmail: "Invalid e-mail address"
        case .invalidPassword(let violation): violation.description
        case .invalidSignup: "The e-mail address is already in use"
        }
    }

    // MARK: - E-mail verification

    /// Mails `user` a verification link (5 days). A user without an address gets nothing.
    func sendVerificationEmail(to user: User, caller: Caller) async throws {
        guard let email = user.email else { return }
        let link = try await ticket(
            .emailVerification,
            AccountTicket(
                userID: user.userID, email: email, clientID: caller.clientID,
                expiresAt: clock.now().addingTimeInterval(Self.verificationLifetime)))
        try await mail(.verifyEmail, to: email, link: link, caller: caller)
    }

    /// A verification link for the Management API (`POST /tickets/email-verification`), not mailed.
    func verificationTicket(for user: User, resultURL: String?, lifetime: Int?, clientID: String?) async throws
        -> String
    {
        try await ticket(
            .emailVerification,
            AccountTicket(
                userID: user.userID, email: user.email, resultURL: resultURL, clientID: clientID,
                expiresAt: clock.now().addingTimeInterval(lifetime.map(Double.init) ?? Self.verificationLifetime)))
    }

    /// What opening a verification link did.
    enum Verification: Sendable {
        /// The address is verified now; "Continue" leads to the URL when there is one.
        case verified(User, continueURL: String?)
        /// The link was used, expired, never issued, or its address is no longer the user's.
        case unusable
    }

    /// Uses a verification link: sets `email_verified` (logs `sv`), or answers ``Verification/unusable`` (`fv`).
    func verifyEmail(ticket token: String, caller: Caller) async throws -> Verification {
        let consumed = try await store.consumeArtefact(
            kind: AccountTicket.Kind.emailVerification.rawValue, hash: SecretHash.sha256Hex(token), now: clock.now())
        guard case .consumed(let payload) = consumed, let ticket = Self.decode(payload),
            var record = try await store.user(id: ticket.userID), let email = record.user.email,
            ticket.email == nil || ticket.email == email
        else {
            log(.verificationFailed, Self.unusableTicket(consumed), userID: nil, email: nil, caller)
            return .unusable
        }
        record.user.emailVerified = true
        record.user.updatedAt = clock.now()
        try await store.updateUser(record)
        log(.verificationSucceeded, "Email verified", user: record.user, caller)
        return .verified(record.user, continueURL: continueURL(ticket.resultURL))
    }

    // MARK: - Password reset

    /// What a reset request (`/u/reset-password`, `POST /dbconnections/change_password`) did. The person is
    /// told the same either way; only the IP limit is said (it does not depend on the address).
    enum ResetRequest: Sendable {
        case answered
        case tooMany(retryAfter: Int)
    }

    /// Mails a reset link (5 minutes) when `email` has a database account, at most
    /// ``AccountLimits/mailsPerAddress`` per address per hour (logs `scpr`); logs `fcpr` otherwise. The caller
    /// answers "If that address has an account, we sent a link" whatever happened.
    func requestPasswordReset(email: String, caller: Caller) async throws -> ResetRequest {
        if let retryAfter = limits.resetRequests.admit(caller.ip ?? "unknown") {
            log(
                .passwordResetRequestFailed, "Too many password reset requests from this IP address",
                userID: nil, email: email, caller)
            return .tooMany(retryAfter: retryAfter)
        }
        let address = email.trimmingCharacters(in: .whitespaces).lowercased()
        guard EmailAddress.isValid(address), let record = try await store.user(email: address) else {
            log(.passwordResetRequestFailed, "No account with this e-mail address", userID: nil, email: address, caller)
            return .answered
        }
        guard limits.mailsPerAddress.admit(SecretHash.sha256Hex(address)) == nil else {
            log(
                .passwordResetRequestFailed, "Too many password reset e-mails to this address", user: record.user,
                caller)
            return .answered
        }
        try await sendPasswordReset(to: record.user, caller: caller)
        return .answered
    }

    /// Mails `user` a reset link (5 minutes) and logs `scpr`: a request for their address, or the console's
    /// "Send password reset".
    func sendPasswordReset(to user: User, caller: Caller) async throws {
        guard let address = user.email else { return }
        let link = try await passwordResetTicket(
            for: user, resultURL: nil, lifetime: nil, markEmailVerified: false, clientID: caller.clientID)
        try await mail(.resetPassword, to: address, link: link, caller: caller)
        log(.passwordResetRequestSucceeded, "Password reset e-mail sent", user: user, caller)
    }

    /// A reset link (`{issuer}u/reset-password?ticket=…`), for the e-mail or a Management ticket.
    func passwordResetTicket(
        for user: User, resultURL: String?, lifetime: Int?, markEmailVerified: Bool, clientID: String?
    ) async throws -> String {
        try await ticket(
            .passwordReset,
            AccountTicket(
                userID: user.userID, email: user.email, resultURL: resultURL,
                markEmailVerified: markEmailVerified ? true : nil, clientID: clientID,
                expiresAt: clock.now().addingTimeInterval(lifetime.map(Double.init) ?? Self.resetLifetime)))
    }

    /// The user a reset link is for, while it is usable (viewing it does not use it up).
    func pendingReset(ticket token: String) async throws -> (AccountTicket, UserRecord)? {
        guard
            let payload = try await store.peekArtefact(
                kind: AccountTicket.Kind.passwordReset.rawValue, hash: SecretHash.sha256Hex(token), now: clock.now()),
            let ticket = Self.decode(payload), let record = try await store.user(id: ticket.userID)
        else { return nil }
        return (ticket, record)
    }

    /// What a new password through a reset link did.
    enum Reset: Sendable {
        case changed(User, continueURL: String?)
        /// The policy or the history refused it; the link stays usable.
        case refused(PasswordPolicy.Violation)
        /// The link was used, expired or never issued.
        case unusable
    }

    /// Sets the password a reset link asks for (SPEC §15.1): checks it (``violation(of:for:currentHash:policy:)``;
    /// a refusal leaves the ticket usable), uses the ticket up atomically (of two concurrent posts one wins),
    /// stores the hash and records it in the history, then ends the user's sessions and refresh tokens and
    /// clears their login lock. Logs `scp` or `fcp`.
    func resetPassword(ticket token: String, password: String, caller: Caller) async throws -> Reset {
        guard let (ticket, record) = try await pendingReset(ticket: token) else {
            refuseUnusableReset(caller: caller)
            return .unusable
        }
        let settings = try await settings()
        if let violation = try await self.violation(
            of: password, for: record.user, currentHash: record.passwordHash, policy: settings.policy)
        {
            log(.passwordChangeFailed, violation.description, user: record.user, caller)
            return .refused(violation)
        }
        let hash = try await hash(password)
        guard
            case .consumed = try await store.consumeArtefact(
                kind: AccountTicket.Kind.passwordReset.rawValue, hash: SecretHash.sha256Hex(token), now: clock.now()),
            var current = try await store.user(id: ticket.userID)
        else {
            log(.passwordChangeFailed, "The reset link was used, expired or never issued", user: record.user, caller)
            return .unusable
        }
        current.passwordHash = hash
        if ticket.markEmailVerified == true { current.user.emailVerified = true }
        current.user.updatedAt = clock.now()
        try await store.updateUser(current)
        try await remember(hash, of: current.user.userID)
        try await endSessions(of: current.user.userID)
        try await store.unlockLogin(userID: current.user.userID)
        log(.passwordChangeSucceeded, "Password changed through a reset link", user: current.user, caller)
        return .changed(current.user, continueURL: continueURL(ticket.resultURL))
    }

    /// Logs `fcp` for a new password posted with a reset link that was used, expired or never issued.
    func refuseUnusableReset(caller: Caller) {
        log(.passwordChangeFailed, "The reset link was used, expired or never issued", userID: nil, email: nil, caller)
    }

    /// Ends every SSO session of the user and revokes every refresh-token family of theirs, with its access
    /// tokens (SPEC §15.1: a reset signs the person out everywhere).
    func endSessions(of userID: String) async throws {
        let now = clock.now()
        _ = try await store.deleteSessions(userID: userID)
        for family in try await store.liveRefreshTokenFamilies(userID: userID) {
            _ = try await familyRevocation.revoke(family: family.familyID, of: family.clientID, at: now)
        }
    }

    // MARK: - Shared steps

    /// Where "Continue" may lead after a ticket: its `result_url` when it is one of a client's callbacks or a
    /// page of the issuer; otherwise nowhere (SPEC §15.1: never an open redirect).
    func continueURL(_ resultURL: String?) -> String? {
        guard let resultURL else { return nil }
        return resultURL.hasPrefix(issuer) || tenant.isCallback(resultURL) ? resultURL : nil
    }

    /// Stores `ticket` under the hash of a new random token; the link with the token.
    private func ticket(_ kind: AccountTicket.Kind, _ ticket: AccountTicket) async throws -> String {
        let token = RandomToken.make()
        let payload = String(decoding: try JSONEncoder().encode(ticket), as: UTF8.self)
        try await store.putArtefact(
            kind: kind.rawValue, hash: SecretHash.sha256Hex(token), payload: payload, expiresAt: ticket.expiresAt)
        return issuer + kind.path + "?ticket=" + token
    }

    /// Queues the e-mail (``AccountMailDelivery``); it lives as long as its link.
    private func mail(_ purpose: AccountMailDelivery.Purpose, to address: String, link: String, caller: Caller)
        async throws
    {
        let lifetime = purpose == .verifyEmail ? Self.verificationLifetime : Self.resetLifetime
        let expiresAt = clock.now().addingTimeInterval(lifetime)
        let payload = AccountMailDelivery.Payload(
            purpose: purpose, to: address, link: link, expiresAt: expiresAt, clientName: caller.clientName)
        try await deliveries.submit(kind: AccountMailDelivery.kind, payload: payload.json, expiresAt: expiresAt)
    }

    private static func decode(_ payload: String) -> AccountTicket? {
        try? JSONDecoder().decode(AccountTicket.self, from: Data(payload.utf8))
    }

    private static func unusableTicket(_ result: ConsumeResult) -> String {
        switch result {
        case .alreadyConsumed: "The link was already used"
        case .expired: "The link expired"
        case .notFound: "The link was never issued"
        case .consumed: "The link's address is no longer the user's"
        }
    }

    func log(_ type: LogEventType, _ description: String, user: User, _ caller: Caller) {
        log(type, description, userID: user.userID, email: user.email, caller)
    }

    func log(_ type: LogEventType, _ description: String, userID: String?, email: String?, _ caller: Caller) {
        eventLog.record(
            LogEvent(
                date: clock.now(), type: type, description: description, clientID: caller.clientID,
                clientName: caller.clientName, ip: caller.ip, userAgent: caller.userAgent, userID: userID,
                userName: email, details: ["connection": .string(Connection.databaseName)]))
    }
}

/// The limits against mail-bombing and mass sign-up (SPEC §15.1, docs/threat-model.md), one set per node.
struct AccountLimits: Sendable {
    /// Sign-ups per IP: 10 an hour, failed ones included, hosted page and API together.
    let signups: AddressRateLimiter
    /// Password reset requests per IP: 20 an hour.
    let resetRequests: AddressRateLimiter
    /// Reset e-mails per address: 3 an hour (further requests are answered the same and mail nothing).
    let mailsPerAddress: AddressRateLimiter

    init(clock: any WardenClock) {
        signups = AddressRateLimiter(limit: 10, window: 3600, clock: clock)
        resetRequests = AddressRateLimiter(limit: 20, window: 3600, clock: clock)
        mailsPerAddress = AddressRateLimiter(limit: 3, window: 3600, clock: clock)
    }
}
