import Foundation
import HTTPTypes
import Hummingbird
import WardenCore
import WardenWire

/// The WebAuthn second factors' pages (SPEC §17 "Second factor"): `/u/mfa/webauthn` ("Use a security key") and
/// `/u/mfa/webauthn-enroll` ("Add a security key", reached from `/u/mfa/enroll` by a user with nothing enrolled),
/// each with a `…-options` endpoint the page's script fetches the ceremony's options from. The checks are
/// ``PasskeyCeremonies``'; a refusal is logged and shown as one sentence, and the person can try again.
extension SecondFactorPages {
    /// What the page says when a key does not prove the second factor.
    static let keyRefusedMessage = "That security key was not accepted. Try again with a key you added to this account."

    // MARK: - Use a security key

    /// `GET /u/mfa/webauthn`.
    func showSecurityKey(_ pending: Pending) async throws -> Response {
        let enrolled = try await enrollments(of: pending)
        guard enrolled.canUseSecurityKey else { return Self.redirect(to: path("otp"), state: pending.state) }
        return try await securityKeyPage(pending, enrolled, enrol: nil, message: nil, status: .ok)
    }

    /// `POST /u/mfa/webauthn-options`: request options naming the user's keys of the enabled factors.
    func securityKeyOptions(_ pending: Pending) async throws -> Response {
        let enrolled = try await enrollments(of: pending)
        guard enrolled.canUseSecurityKey else { throw ErrorPage.expiredTransaction }
        let (options, session) = try await ceremonies.startSecurityKeyAuthentication(
            userID: pending.login.user.userID, keys: enrolled.securityKeys,
            factors: try await securityKeyFactors(), clientID: pending.login.client.clientID,
            transactionID: pending.state)
        return PasskeyController.answer(options, session)
    }

    /// `POST /u/mfa/webauthn` with the assertion: one of the user's keys of an enabled factor ends the login.
    func checkSecurityKey(_ pending: Pending) async throws -> Response {
        let enrolled = try await enrollments(of: pending)
        do {
            let (ceremony, answer) = try await ceremony(of: pending)
            let credential = try await ceremonies.authenticate(answer, pending: ceremony)
            guard enrolled.securityKeys.contains(where: { $0.id == credential.id }) else {
                throw OAuthError(.invalidGrant, "The key's factor is turned off")
            }
        } catch let error as OAuthError {
            secondFactor.log(
                .webAuthnChallengeFailed, pending.login, pending.request, pending.context,
                "Security key refused: " + error.description)
            return try await securityKeyPage(
                pending, enrolled, enrol: nil, message: Self.keyRefusedMessage, status: .badRequest)
        }
        secondFactor.log(.deviceAccepted, pending.login, pending.request, pending.context, "Security key accepted")
        return try await complete(pending)
    }

    // MARK: - Add a security key

    /// `GET /u/mfa/webauthn-enroll[?factor=]`: for a login that enrols, "Add a security key" (or the device's own
    /// authenticator with `factor=webauthn-platform`).
    func showSecurityKeyEnrollment(_ pending: Pending) async throws -> Response {
        let factor = try await enrollingFactor(pending)
        return try await securityKeyPage(
            pending, try await enrollments(of: pending), enrol: factor, message: nil, status: .ok)
    }

    /// `POST /u/mfa/webauthn-enroll-options[?factor=]`: creation options of a key of the factor.
    func securityKeyEnrollmentOptions(_ pending: Pending) async throws -> Response {
        let factor = try await enrollingFactor(pending)
        let user = pending.login.user
        let (options, session) = try await ceremonies.startSecurityKeyEnrollment(
            of: user, factor: factor, existing: try await store.webAuthnCredentials(userID: user.userID),
            clientID: pending.login.client.clientID, transactionID: pending.state)
        return PasskeyController.answer(options, session)
    }

    /// `POST /u/mfa/webauthn-enroll[?factor=]` with the new credential: stored as the user's key (at most 20 of a
    /// kind); the login's enrolment ticket is used up, and the login goes on as after any enrolment.
    func enrollSecurityKey(_ pending: Pending) async throws -> Response {
        let factor = try await enrollingFactor(pending)
        let user = pending.login.user
        do {
            let (ceremony, answer) = try await ceremony(of: pending)
            guard ceremony.ceremony == .registration, ceremony.kind == factor.kind, ceremony.userID == user.userID
            else { throw OAuthError(.invalidGrant, "The auth_session is not this enrolment's") }
            let credential = try ceremonies.register(
                answer, pending: ceremony, userID: user.userID, userAgent: pending.request.headers[.userAgent])
            switch try await store.insertWebAuthnCredential(credential, limit: PasskeyPolicy.limitPerUser) {
            case .inserted: break
            case .duplicateCredential: throw OAuthError(.invalidGrant, "The key is registered already")
            case .limitReached: throw OAuthError(.invalidGrant, "The user has 20 keys of this kind")
            }
        } catch let error as OAuthError {
            secondFactor.log(
                .webAuthnEnrollmentFailed, pending.login, pending.request, pending.context,
                "Security key not added: " + error.description)
            return try await securityKeyPage(
                pending, try await enrollments(of: pending), enrol: factor,
                message: "That key could not be added. Try again, or choose another way below.",
                status: .badRequest)
        }
        if let ticket = pending.transaction.enrollment?.ticketID { _ = try await secondFactor.tickets.consume(ticket) }
        secondFactor.log(
            .deviceEnrolled, pending.login, pending.request, pending.context, "Security key added at sign-in")
        return try await enrolled(pending)
    }

    // MARK: - Shared

    /// The enabled WebAuthn factors with their settings.
    func securityKeyFactors() async throws -> [PasskeyCeremonies.SecurityKeyFactor] {
        let enabled = try await store.enabledMFAFactors()
        var factors: [PasskeyCeremonies.SecurityKeyFactor] = []
        for factor in MFAFactor.webAuthn where enabled.contains(factor) {
            factors.append(.init(factor: factor, settings: try await store.webAuthnFactorSettings(factor)))
        }
        return factors
    }

    /// The factor a login that enrols adds a key of: `factor` in the query when enabled, else the first enabled.
    /// Only a login parked for enrolment (a user with nothing enrolled) may add one: a password alone never adds
    /// a second factor to an account that has one.
    private func enrollingFactor(_ pending: Pending) async throws -> PasskeyCeremonies.SecurityKeyFactor {
        guard pending.transaction.enrollment != nil else { throw ErrorPage.expiredTransaction }
        let factors = try await securityKeyFactors()
        let asked = QueryParameters(pending.request.uri.query)?["factor"].map(MFAFactor.init(rawValue:))
        guard let factor = factors.first(where: { $0.factor == asked }) ?? factors.first else {
            throw ErrorPage.expiredTransaction
        }
        return factor
    }

    /// The ceremony the posted `passkey_session` names (consumed) and the posted credential.
    private func ceremony(of pending: Pending) async throws -> (PasskeyCeremonies.Pending, PublicKeyCredentialAnswer) {
        guard let session = pending.form?["passkey_session"], let response = pending.form?["passkey_response"] else {
            throw OAuthError.invalidRequest("No credential was posted")
        }
        let answer = try PublicKeyCredentialAnswer(json: response)
        let ceremony = try await ceremonies.consume(
            session, clientID: pending.login.client.clientID, transactionID: pending.state)
        guard ceremony.userID == pending.login.user.userID else {
            throw OAuthError(.invalidGrant, "The auth_session is not this user's")
        }
        return (ceremony, answer)
    }

    /// The links of `/u/mfa/enroll` to the WebAuthn factors' enrolment.
    func securityKeyEnrollmentLinks(state: String, except current: MFAFactor? = nil) async throws -> [MFALink] {
        try await securityKeyFactors().filter { $0.factor != current }.map { factor in
            MFALink(
                text: MFASecurityKeyPage.enrolButton(factor.factor),
                href: path("webauthn-enroll") + "?state=" + state + "&factor=" + factor.factor.rawValue)
        }
    }

    /// The page of either step; enrolling, its links lead to the other factors' enrolment.
    private func securityKeyPage(
        _ pending: Pending, _ enrolled: MFAEnrollments, enrol factor: PasskeyCeremonies.SecurityKeyFactor?,
        message: String?, status: HTTPResponse.Status
    ) async throws -> Response {
        let query = factor.map { "?factor=" + $0.factor.rawValue } ?? ""
        let name = factor == nil ? "webauthn" : "webauthn-enroll"
        var links = alternatives(enrolled, state: pending.state, except: name)
        if let factor {
            links = try await securityKeyEnrollmentLinks(state: pending.state, except: factor.factor)
            let enabled = try await store.enabledMFAFactors()
            if !enabled.isDisjoint(with: [.pushNotification, .otp]) {
                links.append(
                    MFALink(text: "Use an authenticator app instead", href: path("enroll") + "?state=" + pending.state))
            }
        }
        return page(
            MFASecurityKeyPage.make(
                enrol: factor?.factor, formAction: path(name) + query, optionsURL: path(name + "-options") + query,
                state: pending.state, csrf: pending.transaction.csrf, message: message, alternatives: links,
                status: status),
            pending)
    }
}
