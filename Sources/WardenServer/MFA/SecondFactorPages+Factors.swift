import Foundation
import HTTPTypes
import Hummingbird
import WardenCore
import WardenWire

/// The pages of each factor (SPEC §12 "Hosted pages").
extension SecondFactorPages {
    /// How often the waiting pages reload themselves, in seconds.
    static let refreshSeconds = "3"

    // MARK: - Enrolment

    /// `GET /u/mfa/enroll`: the QR code of the `otpauth://` URI with the login's fresh ticket; once a device has
    /// enrolled with it (the page reloads itself), the new recovery code.
    func showEnrollment(_ pending: Pending) async throws -> Response {
        guard let enrollment = pending.transaction.enrollment else { throw ErrorPage.expiredTransaction }
        if let device = try await store.deviceEnrollment(id: enrollment.enrollmentID),
            device.userID == pending.login.user.userID
        {
            return try await enrolled(pending)
        }
        return try await enrollmentPage(pending, enrollment: enrollment, message: nil)
    }

    /// `POST /u/mfa/enroll` with `code`: an authenticator app without push completes the enrolment with a current
    /// code of the ticket's secret, which becomes an OTP-only authenticator.
    func enrollWithCode(_ pending: Pending) async throws -> Response {
        guard let enrollment = pending.transaction.enrollment else { throw ErrorPage.expiredTransaction }
        let userID = pending.login.user.userID
        let typed = Self.digits(pending.form?["code"])
        let now = secondFactor.clock.now()
        guard let totp = TOTP(base32Secret: enrollment.totpSecret),
            let step = totp.matchingSteps(
                of: typed, in: (totp.timeStep(at: now) - 1)...(totp.timeStep(at: now) + 1)
            ).last
        else {
            return try await enrollmentPage(
                pending, enrollment: enrollment,
                message: "That code is not right. Type the 6 digits your app shows now; check the phone's clock.")
        }
        // The ticket is used up so that no device enrols with it after this; a device that already did wins.
        guard try await secondFactor.tickets.consume(enrollment.ticketID) != nil else {
            return try await showEnrollment(pending)
        }
        let authenticator = OTPAuthenticator(
            id: RandomToken.identifier(prefix: OTPAuthenticator.idPrefix), userID: userID,
            name: "Authenticator app", secret: enrollment.totpSecret, createdAt: now, lastAuthAt: now)
        try await store.insertOTPAuthenticator(authenticator)
        // The code just typed counts as used (RFC 6238 §5.2).
        _ = try await store.recordOTPAttempt(
            userID: userID, match: OTPMatch(authenticatorID: authenticator.id, step: step), at: now,
            throttle: codes.throttle)
        secondFactor.log(
            .deviceEnrolled, pending.login, pending.request, pending.context,
            "Authenticator app enrolled at sign-in")
        return try await enrolled(pending)
    }

    /// After an enrolment: the new recovery code when the factor is on, else the end of the login.
    func enrolled(_ pending: Pending) async throws -> Response {
        guard try await store.enabledMFAFactors().contains(.recoveryCode) else { return try await complete(pending) }
        let code = try await recoveryCodes.issue(userID: pending.login.user.userID)
        return try await showNewRecoveryCode(code, pending, enrolled: true)
    }

    private func enrollmentPage(
        _ pending: Pending, enrollment: LoginTransaction.PendingEnrollment, message: String?
    ) async throws -> Response {
        let ticket = EnrollmentTicket(
            userID: pending.login.user.userID, userEmail: pending.login.user.email ?? pending.login.user.userID,
            enrollmentID: enrollment.enrollmentID, totpSecret: enrollment.totpSecret)
        let uri = ticket.otpauthURI(ticketID: enrollment.ticketID, issuer: issuer)
        let url = EnrollmentTicket.url(issuer: issuer, ticketID: enrollment.ticketID)
        return page(
            MFAEnrollPage(
                qrCode: try QRCode(encoding: uri).svg(title: "QR code to set up your authenticator"),
                secret: RecoveryCode.grouped(enrollment.totpSecret),
                command: EnrollmentTicket.enrollCommand(url: url), formAction: path("enroll"), state: pending.state,
                csrf: pending.transaction.csrf, message: message,
                alternatives: try await securityKeyEnrollmentLinks(state: pending.state),
                refresh: message == nil ? Self.refreshSeconds : nil, status: message == nil ? .ok : .badRequest),
            pending)
    }

    // MARK: - Push

    /// `GET /u/mfa/push`: sends a sign-in push to every push device (once per transaction, or again after "Send
    /// again"), then waits for the answer: approved ends the login, rejected is `access_denied`.
    func showPush(_ pending: Pending) async throws -> Response {
        let enrolled = try await enrollments(of: pending)
        guard enrolled.canUsePush else { return Self.redirect(to: path("otp"), state: pending.state) }
        let hash = SecretHash.sha256Hex(pending.state)
        guard let challenge = try await store.latestLoginChallenge(transactionHash: hash) else {
            guard try await sendPush(pending) else { return pushPage(pending, enrolled, status: .tooMany) }
            return pushPage(pending, enrolled, status: .waiting)
        }
        switch challenge.status {
        case .approved:
            return try await complete(pending)
        case .rejected:
            _ = try await flow.transactions.consume(pending.state, stage: .mfa)
            let rejected = OAuthError(.accessDenied, "MFA Authorization rejected.")
            guard let authorization = pending.login.authorization else {
                throw ErrorPage(
                    title: "Sign-in rejected", message: "The sign-in was rejected on your device.",
                    advice: "Sign in again if this was you.", status: .forbidden)
            }
            return authorization.responseTarget.response(rejected)
        default:
            let expired = challenge.isExpired(at: secondFactor.clock.now())
            return pushPage(pending, enrolled, status: expired ? .expired : .waiting)
        }
    }

    /// `POST /u/mfa/push`: "Send again" after the push expired.
    func resendPush(_ pending: Pending) async throws -> Response {
        let enrolled = try await enrollments(of: pending)
        guard enrolled.canUsePush else { return Self.redirect(to: path("otp"), state: pending.state) }
        guard try await sendPush(pending) else { return pushPage(pending, enrolled, status: .tooMany) }
        return Self.redirect(to: path("push"), state: pending.state)
    }

    /// Stores a sign-in push for the transaction and queues it to every push device; `false` when too many of the
    /// user's pushes wait already (push fatigue, SPEC §12).
    private func sendPush(_ pending: Pending) async throws -> Bool {
        let now = secondFactor.clock.now()
        let address = ClientAddress.ip(
            of: pending.request, context: pending.context, trusted: secondFactor.trustedProxies)
        let location = address.flatMap(secondFactor.ipIntelligence.lookup)?.countryCode.map {
            JSONValue.object(["n": .string(Self.countryName($0))])
        }
        let challenge = LoginChallenge(
            id: LoginChallenge.ID(authRequestID: RandomToken.make()),
            transactionHash: SecretHash.sha256Hex(pending.state), userID: pending.login.user.userID,
            clientID: pending.login.client.clientID,
            source: UserAgentSummary(pending.request.headers[.userAgent]).source, location: location, createdAt: now,
            expiresAt: now.addingTimeInterval(LoginChallenge.lifetime))
        guard let created = try await deviceTransactions.create(for: challenge) else {
            secondFactor.log(
                .deviceAuthFailed, pending.login, pending.request, pending.context,
                "Sign-in push not sent: \(LoginChallenge.pendingLimit) wait already")
            return false
        }
        var payloads: [String] = []
        for (transaction, device) in created where !device.pushDisabled {
            payloads.append(try await deviceTransactions.push(transaction, of: .signIn(challenge), to: device).json)
        }
        try await deliveries.submit(kind: .push, payloads: payloads, expiresAt: challenge.expiresAt)
        return true
    }

    private func pushPage(_ pending: Pending, _ enrolled: MFAEnrollments, status: MFAPushPage.Status) -> Response {
        page(
            MFAPushPage(
                status: status,
                devices: enrolled.pushDevices.map { DisplayText.clean($0.name) }.joined(separator: ", "),
                formAction: path("push"), state: pending.state, csrf: pending.transaction.csrf,
                alternatives: alternatives(enrolled, state: pending.state, except: "push")),
            pending)
    }

    /// The English name of an ISO 3166-1 country code, or the code.
    private static func countryName(_ code: String) -> String {
        Locale(identifier: "en_US").localizedString(forRegionCode: code) ?? code
    }

    // MARK: - One-time code

    /// `GET /u/mfa/otp`.
    func showCode(_ pending: Pending) async throws -> Response {
        try await codePage(pending, kind: .otp)
    }

    /// `POST /u/mfa/otp` with `code`: RFC 6238, ±1 step; a used code is refused; 10 wrong codes in 15 minutes lock
    /// OTP for the user for 15 minutes (`gd_otp_rate_limit_exceed`), whatever the code.
    func checkCode(_ pending: Pending) async throws -> Response {
        guard try await store.enabledMFAFactors().contains(.otp) else {
            return try await codePage(
                pending, kind: .otp, message: "One-time codes are turned off.", status: .forbidden)
        }
        let userID = pending.login.user.userID
        let result = try await codes.verify(Self.digits(pending.form?["code"]), userID: userID)
        let (type, description, message): (LogEventType, String, String)
        var status = HTTPResponse.Status.badRequest
        switch result {
        case .accepted:
            secondFactor.log(.deviceAccepted, pending.login, pending.request, pending.context, "One-time code accepted")
            return try await complete(pending)
        case .replayed:
            (type, description, message) = (
                .deviceAuthFailed, "One-time code already used", "That code was used already. Wait for the next one."
            )
        case .wrong(let ordinal) where ordinal >= codes.throttle.limit:
            status = .tooManyRequests
            (type, description, message) = (
                .otpRateLimitExceeded, "Too many wrong one-time codes: OTP locked",
                "Too many wrong codes. Codes are refused for 15 minutes; use a recovery code or try later."
            )
        case .wrong:
            (type, description, message) = (
                .deviceAuthFailed, "Wrong one-time code",
                "That code is not right. Type the 6 digits your app shows now."
            )
        case .locked:
            status = .tooManyRequests
            (type, description, message) = (
                .otpRateLimitExceeded, "One-time code refused: OTP locked",
                "Too many wrong codes. Codes are refused for 15 minutes; use a recovery code or try later."
            )
        }
        secondFactor.log(type, pending.login, pending.request, pending.context, description)
        return try await codePage(pending, kind: .otp, message: message, status: status)
    }

    // MARK: - Recovery code

    /// `GET /u/mfa/recovery`.
    func showRecovery(_ pending: Pending) async throws -> Response {
        try await codePage(pending, kind: .recovery)
    }

    /// `POST /u/mfa/recovery` with `code`: the code works once; a new one is shown at once.
    func checkRecovery(_ pending: Pending) async throws -> Response {
        guard try await store.enabledMFAFactors().contains(.recoveryCode) else {
            return try await codePage(
                pending, kind: .recovery, message: "Recovery codes are turned off.", status: .forbidden)
        }
        let typed = String((pending.form?["code"] ?? "").prefix(64))
        switch try await recoveryCodes.redeem(typed, userID: pending.login.user.userID) {
        case .accepted(let newCode):
            secondFactor.log(
                .recoverySucceeded, pending.login, pending.request, pending.context, "Recovery code used")
            return try await showNewRecoveryCode(newCode, pending, enrolled: false)
        case .rejected:
            secondFactor.log(
                .recoveryFailed, pending.login, pending.request, pending.context, "Wrong recovery code")
            return try await codePage(
                pending, kind: .recovery, message: "That recovery code is not right. Check it and try again.",
                status: .badRequest)
        }
    }

    private func codePage(
        _ pending: Pending, kind: MFACodePage.Kind, message: String? = nil, status: HTTPResponse.Status = .ok
    ) async throws -> Response {
        let enrolled = try await enrollments(of: pending)
        let name = kind == .otp ? "otp" : "recovery"
        return page(
            MFACodePage(
                kind: kind, formAction: path(name), state: pending.state, csrf: pending.transaction.csrf,
                message: message, alternatives: alternatives(enrolled, state: pending.state, except: name),
                status: status),
            pending)
    }

    /// What a user typed as a one-time code: digits only (spaces dropped), at most 10.
    static func digits(_ typed: String?) -> String {
        String((typed ?? "").filter { $0 != " " }.prefix(10))
    }
}
