import Foundation
import Hummingbird
import WardenCore
import WardenWire

/// The hosted pages of the second factor (SPEC §12), reached from ``SecondFactor`` with the `state` of an MFA
/// transaction: `/u/mfa/enroll` (a QR code for a user with nothing enrolled), `/u/mfa/push` (waits for the
/// device's answer, refreshing itself), `/u/mfa/otp` (a one-time code), `/u/mfa/recovery` (the recovery code),
/// `/u/mfa/continue` after a new recovery code was shown, and the security keys' `/u/mfa/webauthn` and
/// `/u/mfa/webauthn-enroll` (SPEC §17). Plain HTML forms with the login's CSRF token; JavaScript only for the
/// security keys' ceremonies.
struct SecondFactorPages: Sendable {
    let secondFactor: SecondFactor
    let codes: OneTimeCodeVerifier
    let recoveryCodes: RecoveryCodes
    let deviceTransactions: DeviceTransactions
    let deliveries: DeliveryService
    /// The clients of pending logins.
    let tenant: TenantCache
    /// `{issuer}` with its trailing slash, the base of the enrolment URI.
    let issuer: String
    /// The security keys' ceremonies (SPEC §17 "Second factor").
    let ceremonies: PasskeyCeremonies

    /// The pages over `secondFactor`'s gate; codes checked by `codes` and `recoveryCodes`, security keys by
    /// `ceremonies`; sign-in pushes stored by `deviceTransactions` and sent through `deliveries`.
    init(
        secondFactor: SecondFactor, codes: OneTimeCodeVerifier, recoveryCodes: RecoveryCodes,
        deviceTransactions: DeviceTransactions, deliveries: DeliveryService, tenant: TenantCache, issuer: String,
        ceremonies: PasskeyCeremonies
    ) {
        self.ceremonies = ceremonies
        self.secondFactor = secondFactor
        self.codes = codes
        self.recoveryCodes = recoveryCodes
        self.deviceTransactions = deviceTransactions
        self.deliveries = deliveries
        self.tenant = tenant
        self.issuer = issuer
    }

    var flow: AuthorizationFlow { secondFactor.flow }
    var store: any WardenStore { secondFactor.store }

    func addRoutes(to router: Router<WardenRequestContext>) {
        let pages: [(String, Handler?, Handler)] = [
            ("enroll", showEnrollment, enrollWithCode),
            ("push", showPush, resendPush),
            ("otp", showCode, checkCode),
            ("recovery", showRecovery, checkRecovery),
            ("webauthn", showSecurityKey, checkSecurityKey),
            ("webauthn-options", nil, securityKeyOptions),
            ("webauthn-enroll", showSecurityKeyEnrollment, enrollSecurityKey),
            ("webauthn-enroll-options", nil, securityKeyEnrollmentOptions),
        ]
        for (path, show, post) in pages {
            if let show {
                router.get(RouterPath("u/mfa/" + path)) { request, context in
                    await respond(context) { try await show(try await resume(query(request), request, context)) }
                }
            }
            router.post(RouterPath("u/mfa/" + path)) { request, context in
                await respond(context) {
                    let form = try await HostedPages.readForm(request)
                    let pending = try await resume(form["state"], request, context)
                    guard CSRFCookie.isValid(field: form["csrf"], request: request, expected: pending.transaction.csrf)
                    else { throw ErrorPage.unverifiedForm }
                    return try await post(pending.with(form: form))
                }
            }
        }
        router.post("u/mfa/continue") { request, context in
            await respond(context) { try await continueAfterRecoveryCode(request, context) }
        }
    }

    /// The 303 to an MFA page of transaction `state`.
    static func redirect(to path: String, state: String) -> Response {
        Response(
            status: .seeOther,
            headers: [.location: path + "?state=" + state, .cacheControl: "no-store"])
    }

    // MARK: - Pending MFA transactions

    typealias Handler = @Sendable (Pending) async throws -> Response

    /// An MFA transaction being answered, with its login and the request at hand.
    struct Pending: Sendable {
        var state: String
        var transaction: LoginTransaction
        var login: SecondFactor.Login
        var request: Request
        var context: WardenRequestContext
        var form: RequestParameters?

        func with(form: RequestParameters) -> Pending {
            var copy = self
            copy.form = form
            return copy
        }
    }

    private func query(_ request: Request) -> String? {
        QueryParameters(request.uri.query)?["state"]
    }

    /// The MFA transaction `state` names, while the browser still holds its session and the user may sign in.
    private func resume(_ state: String?, _ request: Request, _ context: WardenRequestContext) async throws
        -> Pending
    {
        guard let state, let transaction = try await flow.transactions.peek(state, stage: .mfa),
            let login = try await login(of: transaction, request: request)
        else { throw ErrorPage.expiredTransaction }
        return Pending(state: state, transaction: transaction, login: login, request: request, context: context)
    }

    /// The login a transaction continues: its session must be the browser's.
    private func login(of transaction: LoginTransaction, request: Request) async throws -> SecondFactor.Login? {
        guard let userID = transaction.userID, let sessionID = transaction.sessionID,
            let session = try await flow.sessions.current(request), session.id == sessionID,
            session.userID == userID, let user = try await flow.activeUser(of: session),
            let client = try await tenant.client(id: transaction.clientID)?.client
        else { return nil }
        var connection: SecondFactor.LoginConnection?
        if let id = transaction.connectionID, let found = try await store.connection(id: id) {
            connection = SecondFactor.LoginConnection(found, identityUserID: transaction.identityUserID)
        }
        return SecondFactor.Login(
            user: user, client: client, authorization: transaction.request, returnPath: transaction.returnPath,
            session: session, firstFactor: .session(amr: session.amr), ruleRequiresMFA: false,
            recordsLogin: transaction.recordsLogin ?? false, connection: connection, link: transaction.link)
    }

    /// What the user can use besides the page at hand.
    func enrollments(of pending: Pending) async throws -> MFAEnrollments {
        try await MFAEnrollments.read(
            userID: pending.login.user.userID, factors: try await store.enabledMFAFactors(), store: store)
    }

    /// The second factor is done: the transaction is used up (once, whatever concurrent pages do) and the login
    /// ends.
    func complete(_ pending: Pending, stage: LoginTransaction.Stage = .mfa) async throws -> Response {
        guard try await flow.transactions.consume(pending.state, stage: stage) != nil else {
            throw ErrorPage.expiredTransaction
        }
        return try await secondFactor.finish(
            pending.login, network: secondFactor.network(of: pending.request, context: pending.context), didMFA: true,
            request: pending.request, context: pending.context)
    }

    /// A page of `pending`'s transaction, with the login's CSRF cookie.
    func page(_ page: some Page, _ pending: Pending) -> Response {
        flow.withCSRFCookie(PageRenderer.shared.response(page), token: pending.transaction.csrf)
    }

    /// The path of MFA page `name`.
    func path(_ name: String) -> String { flow.basePath + "u/mfa/" + name }

    /// The links to the other ways of `enrolled` (SPEC §12: "Enter a code instead", "Use a recovery code").
    func alternatives(_ enrolled: MFAEnrollments, state: String, except current: String) -> [MFALink] {
        var links: [MFALink] = []
        if current != "webauthn", enrolled.canUseSecurityKey {
            links.append(MFALink(text: "Use a security key", href: path("webauthn") + "?state=" + state))
        }
        if current != "push", enrolled.canUsePush {
            links.append(MFALink(text: "Send a notification to my device", href: path("push") + "?state=" + state))
        }
        if current != "otp", enrolled.canUseCode {
            links.append(MFALink(text: "Enter a code instead", href: path("otp") + "?state=" + state))
        }
        if current != "recovery", enrolled.hasRecoveryCode {
            links.append(MFALink(text: "Use a recovery code", href: path("recovery") + "?state=" + state))
        }
        return links
    }

    private func respond(_ context: WardenRequestContext, _ handler: () async throws -> Response) async -> Response {
        await HostedPages.respond(context, store: store) {
            do {
                return try await handler()
            } catch let failure as AuthorizationFailure {
                return failure.response
            }
        }
    }

    // MARK: - Recovery code shown once

    /// After an enrolment or a used recovery code: shows the new recovery code once; "Continue" ends the login.
    func showNewRecoveryCode(_ code: String, _ pending: Pending, enrolled: Bool) async throws -> Response {
        guard try await flow.transactions.consume(pending.state, stage: .mfa) != nil else {
            throw ErrorPage.expiredTransaction
        }
        var next = pending.transaction
        next.enrollment = nil
        next.csrf = RandomToken.make()
        let state = try await flow.transactions.start(next, stage: .mfaDone, lifetime: SecondFactor.transactionLifetime)
        return flow.withCSRFCookie(
            PageRenderer.shared.response(
                MFARecoveryCodePage(
                    code: RecoveryCode.grouped(code), enrolled: enrolled, formAction: path("continue"), state: state,
                    csrf: next.csrf)),
            token: next.csrf)
    }

    /// `POST /u/mfa/continue`: the user saved the new recovery code.
    private func continueAfterRecoveryCode(_ request: Request, _ context: WardenRequestContext) async throws
        -> Response
    {
        let form = try await HostedPages.readForm(request)
        guard let state = form["state"], let transaction = try await flow.transactions.peek(state, stage: .mfaDone),
            let login = try await login(of: transaction, request: request)
        else { throw ErrorPage.expiredTransaction }
        guard CSRFCookie.isValid(field: form["csrf"], request: request, expected: transaction.csrf) else {
            throw ErrorPage.unverifiedForm
        }
        let pending = Pending(state: state, transaction: transaction, login: login, request: request, context: context)
        return try await complete(pending, stage: .mfaDone)
    }
}
