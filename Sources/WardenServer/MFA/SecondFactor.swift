import Foundation
import Hummingbird
import WardenCore
import WardenWire

/// The second factor of the hosted login (SPEC §12): after the first factor — a password, an SSO session or a
/// session transfer token — and the post-login rules, decides with ``MFARequirement`` whether MFA is asked and
/// sends the person to the page for it; once it is done (``SecondFactorPages``), or when none is asked, finishes the
/// login: the session remembers its methods, the login is recorded, and the flow answers the application.
///
/// The session exists before the second factor (it carries `pwd` only): every path through it — `/authorize`
/// with the SSO session included — asks this gate again, so nothing it grants skips a second factor the policy
/// asks for.
struct SecondFactor: Sendable {
    /// MFA pages' transactions live 15 minutes: long enough to find the phone, short for a stolen `state`.
    static let transactionLifetime: Double = 900

    let store: any WardenStore
    let flow: AuthorizationFlow
    let tickets: EnrollmentTickets
    let ipIntelligence: IPIntelligence
    /// `--trusted-proxies`: whose `X-Forwarded-For` names the browser.
    let trustedProxies: [CIDR]
    let eventLog: EventLog
    let clock: any WardenClock
    /// Offers a passkey after a password login, before the application's answer (SPEC §17).
    let passkeyOffer: PasskeyEnrollmentOffer

    /// The gate over `store`'s MFA settings, enrolments and recent logins; `flow` answers the application.
    init(
        store: any WardenStore, flow: AuthorizationFlow, tickets: EnrollmentTickets, ipIntelligence: IPIntelligence,
        trustedProxies: [CIDR], eventLog: EventLog, clock: any WardenClock, passkeyOffer: PasskeyEnrollmentOffer
    ) {
        self.passkeyOffer = passkeyOffer
        self.store = store
        self.flow = flow
        self.tickets = tickets
        self.ipIntelligence = ipIntelligence
        self.trustedProxies = trustedProxies
        self.eventLog = eventLog
        self.clock = clock
    }

    /// A login that passed its first factor and the post-login rules and holds a session.
    struct Login: Sendable {
        var user: User
        var client: Client
        /// The request to answer; `nil` for a login that returns to ``returnPath`` (the CIBA approval page).
        var authorization: AuthorizationRequest?
        var returnPath: String?
        var session: Session
        var firstFactor: MFARequirement.FirstFactor
        /// The post-login rules asked for a second factor.
        var ruleRequiresMFA: Bool
        /// The login is logged `s` when it ends (not one answered by an existing SSO session).
        var recordsLogin: Bool
        /// The connection the first factor came through; `nil` for the database's password (SPEC §15).
        var connection: LoginConnection? = nil
        /// The identity this login links to ``user`` once every factor is done (SPEC §15 `/u/link`).
        var link: PendingLink? = nil
    }

    /// The connection of a login, as its log events name it (SPEC §15 "Logs").
    struct LoginConnection: Sendable {
        var connection: Connection
        /// The upstream's own id of the person, when known.
        var identityUserID: String?

        init(_ connection: Connection, identityUserID: String?) {
            self.connection = connection
            self.identityUserID = identityUserID
        }

        /// `connection`, `connection_id`, `strategy`, `strategy_type` and `identity_user_id`.
        var details: [String: JSONValue] {
            var details: [String: JSONValue] = [
                "connection": .string(connection.name), "connection_id": .string(connection.id),
                "strategy": .string(connection.strategy.rawValue),
                "strategy_type": .string(connection.strategy.strategyType.rawValue),
            ]
            if let identityUserID { details["identity_user_id"] = .string(identityUserID) }
            return details
        }
    }

    /// What happens after the first factor of `login`: the application's answer (no MFA asked), an error
    /// redirect `interaction_required` (`prompt=none`), or the redirect to the MFA page — each response carrying
    /// whatever cookies `cookies` holds (the new session's).
    func proceed(_ login: Login, cookies: [Cookie] = [], request: Request, context: WardenRequestContext)
        async throws -> Response
    {
        let network = network(of: request, context: context)
        let policies = try await store.mfaPolicies()
        // Only `confidence-score` compares with the recent logins: one query fewer on every other login.
        let recentLogins =
            policies.contains(.confidenceScore) ? try await store.recentLogins(userID: login.user.userID) : []
        let requirement = MFARequirement(
            policies: policies, enabledFactors: try await store.enabledMFAFactors(),
            acrValues: login.authorization?.acrValues ?? [], ruleRequiresMFA: login.ruleRequiresMFA,
            firstFactor: login.firstFactor, promptNone: login.authorization?.prompt.contains(.none) ?? false,
            network: network, deviceHash: DeviceCookie.hash(in: request), recentLogins: recentLogins)
        var response: Response
        switch requirement.decision {
        case .notRequired:
            response = try await finish(login, network: network, didMFA: false, request: request, context: context)
        case .interactionRequired(let reasons):
            log(.mfaRequired, login, request, context, "MFA required: " + Self.describe(reasons))
            guard let authorization = login.authorization else { throw ErrorPage.expiredTransaction }
            response = authorization.responseTarget.response(
                OAuthError("interaction_required", "Multi-factor authentication is required"))
        case .required(let reasons):
            log(.mfaRequired, login, request, context, "MFA required: " + Self.describe(reasons))
            response = try await start(login, factors: requirement.enabledFactors, request: request, context: context)
        }
        for cookie in cookies { response.setCookie(cookie) }
        return response
    }

    /// The network the browser's address belongs to (SPEC §12 `confidence-score`), when the address is known.
    func network(of request: Request, context: WardenRequestContext) -> LoginNetwork? {
        ClientAddress.ip(of: request, context: context, trusted: trustedProxies).flatMap {
            LoginNetwork(ip: $0, info: ipIntelligence.lookup($0))
        }
    }

    /// Parks the login in an MFA transaction and redirects to its page: enrolment for a user with nothing
    /// enrolled, the push page for one with a push device, else the code page.
    private func start(
        _ login: Login, factors: Set<MFAFactor>, request: Request, context: WardenRequestContext
    ) async throws -> Response {
        var transaction = LoginTransaction(
            login.authorization, returnPath: login.returnPath, clientID: login.client.clientID)
        transaction.sessionID = login.session.id
        transaction.userID = login.user.userID
        transaction.recordsLogin = login.recordsLogin
        transaction.connectionID = login.connection?.connection.id
        transaction.identityUserID = login.connection?.identityUserID
        transaction.link = login.link
        let page: String
        switch try await MFAEnrollments.read(userID: login.user.userID, factors: factors, store: store) {
        case let enrolled where enrolled.canUseSecurityKey:
            page = "webauthn"
        case let enrolled where enrolled.canUsePush:
            page = "push"
        case let enrolled where enrolled.canUseCode:
            page = "otp"
        default:
            let ticket = EnrollmentTicket(user: login.user)
            let ticketID = try await tickets.issue(ticket, lifetime: Self.transactionLifetime)
            transaction.enrollment = .init(
                ticketID: ticketID, enrollmentID: ticket.enrollmentID, totpSecret: ticket.totpSecret)
            // Without push or OTP, the QR code would lead nowhere: a security key is the way to enrol.
            let keysOnly =
                factors.isDisjoint(with: [.pushNotification, .otp]) && !factors.isDisjoint(with: MFAFactor.webAuthn)
            page = keysOnly ? "webauthn-enroll" : "enroll"
            log(.mfaEnrollmentStarted, login, request, context, "Enrolment started at sign-in")
        }
        if transaction.enrollment == nil {
            log(.mfaChallengeStarted, login, request, context, "Second factor asked at sign-in")
        }
        let state = try await flow.transactions.start(
            transaction, stage: .mfa, lifetime: Self.transactionLifetime)
        return SecondFactorPages.redirect(to: flow.basePath + "u/mfa/" + page, state: state)
    }

    /// Ends a login whose factors are done: records the second factor in the session, logs `s` (when the login
    /// asks for it) and the recent login the `confidence-score` policy compares with, gives the browser its
    /// `warden_device` cookie, and answers the application (or returns to the page that asked for the login).
    func finish(
        _ login: Login, network: LoginNetwork?, didMFA: Bool, request: Request, context: WardenRequestContext
    ) async throws -> Response {
        var session = login.session
        if didMFA { session = try await flow.sessions.recordSecondFactor(in: session) }
        // A login with a first factor or a second one is what `confidence-score` remembers; an SSO session
        // answering again adds nothing new (and no write to every silent authorization).
        var deviceCookie: Cookie?
        if login.recordsLogin || didMFA {
            let (deviceHash, cookie) = DeviceCookie.current(in: request, secure: flow.sessions.secureCookies)
            deviceCookie = cookie
            try await store.recordSuccessfulLogin(
                RecentLogin(
                    userID: login.user.userID, network: network, deviceHash: deviceHash,
                    didMFA: session.amr.contains(.multiFactor), at: clock.now()),
                keep: RecentLogin.kept)
        }
        if let link = login.link { try await linkIdentity(link, to: login.user) }
        var user = login.user
        if login.recordsLogin { user = try await record(login, request: request, context: context) }
        var response: Response
        // A password login of this browser, not an SSO session answering again.
        let passwordLogin = login.firstFactor == .credentials && login.connection == nil && login.link == nil
        if let authorization = login.authorization {
            if passwordLogin,
                let offer = try await passkeyOffer.offer(
                    user: user, client: login.client, authorization: authorization, session: session, request: request,
                    flow: flow)
            {
                response = offer
            } else {
                response = try await flow.complete(authorization, client: login.client, session: session, user: user)
            }
        } else {
            response = Response(
                status: .seeOther,
                headers: [.location: login.returnPath ?? flow.basePath, .cacheControl: "no-store"])
        }
        if let deviceCookie { response.setCookie(deviceCookie) }
        return response
    }

    /// Adds the identity a first federated login brought to the account the person just proved (SPEC §15
    /// "Linking"). The same identity linked by a concurrent page is no error; one another user took is.
    private func linkIdentity(_ link: PendingLink, to user: User) async throws {
        guard link.userID == user.userID, let connection = try await store.connection(id: link.connectionID),
            let identity = link.identity(of: connection)
        else { throw ErrorPage.expiredTransaction }
        do {
            try await store.linkIdentity(identity, to: user.userID)
        } catch StorageError.conflict {
            let owner = try await store.user(
                connectionID: connection.id, identityUserID: identity.identity.userID.description)
            guard owner?.user.userID == user.userID else { throw ErrorPage.expiredTransaction }
        }
    }

    /// Updates `last_login` and `logins_count` and logs `s` (SPEC §10), with the organization the login is for
    /// (SPEC §19).
    private func record(_ login: Login, request: Request, context: WardenRequestContext) async throws -> User {
        guard var record = try await store.user(id: login.user.userID) else { return login.user }
        let now = clock.now()
        record.user.lastLogin = now
        record.user.loginsCount += 1
        try await store.updateUser(record)
        let details = (login.connection ?? LoginConnection(.database, identityUserID: nil)).details
        var organization: Organization?
        if let id = login.authorization?.organization {
            organization = try await flow.admission.directory.organization(id: id)
        }
        eventLog.record(
            LogEvent(
                date: now, type: .loginSuccess, description: "Successful login", clientID: login.client.clientID,
                clientName: login.client.name,
                ip: ClientAddress.ip(of: request, context: context, trusted: trustedProxies),
                userAgent: request.headers[.userAgent], userID: login.user.userID, userName: login.user.email,
                audience: login.authorization?.audience,
                scope: login.authorization?.scope.joined(separator: " "), details: details,
                organizationID: organization?.id, organizationName: organization?.name))
        return record.user
    }

    /// Logs an MFA event of `login`.
    func log(
        _ type: LogEventType, _ login: Login, _ request: Request, _ context: WardenRequestContext,
        _ description: String
    ) {
        eventLog.record(
            LogEvent(
                date: clock.now(), type: type, description: description, clientID: login.client.clientID,
                clientName: login.client.name,
                ip: ClientAddress.ip(of: request, context: context, trusted: trustedProxies),
                userAgent: request.headers[.userAgent], userID: login.user.userID, userName: login.user.email))
    }

    private static func describe(_ reasons: Set<MFARequirement.Reason>) -> String {
        reasons.map(\.rawValue).sorted().joined(separator: ", ")
    }
}

/// What a user can prove a second factor with, among the tenant's enabled factors (SPEC §12).
struct MFAEnrollments: Sendable {
    /// Push devices that can receive a sign-in push.
    var pushDevices: [DeviceEnrollment]
    /// Enrolments holding a TOTP secret (every device and OTP-only authenticator), when `otp` is enabled.
    var codeEnrollments: Int
    /// The user has a recovery code and the `recovery-code` factor is enabled.
    var hasRecoveryCode: Bool
    /// The user's security keys whose factor (`webauthn-roaming`, `webauthn-platform`) is enabled (SPEC §17).
    var securityKeys: [WebAuthnCredential]

    var canUsePush: Bool { !pushDevices.isEmpty }
    var canUseCode: Bool { codeEnrollments > 0 }
    var canUseSecurityKey: Bool { !securityKeys.isEmpty }

    static func read(userID: String, factors: Set<MFAFactor>, store: any WardenStore) async throws -> MFAEnrollments {
        let devices = try await store.deviceEnrollments(userID: userID)
        let authenticators = try await store.otpAuthenticators(userID: userID)
        var kinds: Set<WebAuthnCredential.Kind> = []
        if factors.contains(.webAuthnRoaming) { kinds.insert(.roaming) }
        if factors.contains(.webAuthnPlatform) { kinds.insert(.platform) }
        let keys = kinds.isEmpty ? [] : try await store.webAuthnCredentials(userID: userID)
        return MFAEnrollments(
            pushDevices: factors.contains(.pushNotification)
                ? devices.filter { $0.isPushEnrolled && !$0.pushDisabled } : [],
            codeEnrollments: factors.contains(.otp) ? devices.count + authenticators.count : 0,
            hasRecoveryCode: factors.contains(.recoveryCode)
                ? try await store.recoveryCodeHash(userID: userID) != nil : false,
            securityKeys: keys.filter { kinds.contains($0.kind) })
    }
}

/// The long-lived `warden_device` cookie (SPEC §12): a random value naming this browser, stored only as its SHA-256
/// in the user's recent logins, so the `confidence-score` policy knows a browser in which the user did MFA.
enum DeviceCookie {
    static let name = "warden_device"
    /// 400 days, the longest lifetime browsers keep (RFC 6265bis §5.5).
    static let maxAge = 400 * 86_400

    /// SHA-256 (hex) of the cookie the request carries, if any.
    static func hash(in request: Request) -> String? {
        guard let value = request.cookies[name]?.value, value.count >= 32, value.count <= 64 else { return nil }
        return SecretHash.sha256Hex(value)
    }

    /// The hash of the browser's cookie, and the cookie to set when it has none yet.
    static func current(in request: Request, secure: Bool) -> (hash: String, cookie: Cookie?) {
        if let hash = hash(in: request) { return (hash, nil) }
        let value = RandomToken.make()
        let cookie = Cookie(
            name: name, value: value, maxAge: maxAge, path: "/", secure: secure, httpOnly: true, sameSite: .lax)
        return (SecretHash.sha256Hex(value), cookie)
    }
}
