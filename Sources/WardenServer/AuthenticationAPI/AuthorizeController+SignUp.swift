import Foundation
import Hummingbird
import WardenCore
import WardenWire

/// `GET|POST /u/signup?state=…` (SPEC §15.1): the sign-up form of a pending login, reached from
/// `/authorize?screen_hint=signup` or the login page's "Sign up" link. A new account continues the login as
/// its user; a refusal shows the form again saying what to do (the rules a password broke, or "Something went
/// wrong" for an address that cannot be used, never that it has an account).
extension AuthorizeController {
    /// The message of a refused address: the same for one in use as for any other failure.
    static let signupFailedMessage = "Something went wrong, please try again later."

    func showSignUp(_ request: Request) async throws -> Response {
        let (id, transaction, client) = try await pending(QueryParameters(request.uri.query)?["state"])
        let settings = try await accounts.settings()
        var page = SignUpPage(
            clientName: client.name, formAction: flow.signupPath, state: id, csrf: transaction.csrf,
            loginURL: flow.loginPath + "?state=" + id, disabled: settings.signupDisabled)
        page.passkeyOptionsURL = passkeySignUpOptionsURL(settings)
        let invitation = try await organizationContext(of: &page, transaction: transaction, client: client)
        if let invitation { page.email = invitation.inviteeEmail }
        return signUpPage(page, csrf: transaction.csrf)
    }

    /// An organization's login (SPEC §19): the page gets its look, sign-up is off unless the organization enabled
    /// the database connection, and an invitation fills in (and fixes) the invited address.
    private func organizationContext(
        of page: inout SignUpPage, transaction: LoginTransaction, client: Client
    ) async throws -> OrganizationInvitation? {
        guard let authorization = transaction.request, authorization.organization != nil else { return nil }
        let options = try await federation.loginOptions(for: client, answering: authorization)
        page.branding = options.branding
        if !options.signup { page.disabled = true }
        guard let invitation = try await flow.admission.invitation(of: authorization) else { return nil }
        page.invited = true
        return invitation
    }

    func signUp(_ request: Request, context: WardenRequestContext) async throws -> Response {
        let form = try await HostedPages.readForm(request)
        let (id, transaction, client) = try await pending(form["state"])
        guard CSRFCookie.isValid(field: form["csrf"], request: request, expected: transaction.csrf) else {
            throw ErrorPage.unverifiedForm
        }
        var email = form["email"] ?? ""
        var page = SignUpPage(
            clientName: client.name, formAction: flow.signupPath, state: id, csrf: transaction.csrf, email: email,
            loginURL: flow.loginPath + "?state=" + id)
        page.passkeyOptionsURL = passkeySignUpOptionsURL(try await accounts.settings())
        let invitation = try await organizationContext(of: &page, transaction: transaction, client: client)
        if let invitation {
            email = invitation.inviteeEmail
            page.email = email
        }
        guard !page.disabled else {
            page.status = .badRequest
            return signUpPage(page, csrf: transaction.csrf)
        }
        let caller = AccountService.Caller(
            client: client, request: request, context: context, trustedProxies: trustedProxies)
        if let session = form["passkey_session"], let response = form["passkey_response"] {
            do {
                let (signUp, credential) = try await passkeys.registration(
                    session: session, response: response, client: client, transactionID: id,
                    userAgent: request.headers[.userAgent])
                let user = try await accounts.finishPasskeySignUp(signUp, credential: credential, caller: caller)
                return try await signedIn(
                    user, transactionID: id, client: client, request: request, context: context,
                    firstFactor: .passkey)
            } catch let refusal as OAuthError {
                accounts.log(.signupFailed, "Passkey: " + refusal.description, userID: nil, email: email, caller)
                page.message = "That passkey could not be created. Try again, or choose a password."
                page.status = .badRequest
                return signUpPage(page, csrf: transaction.csrf)
            }
        }
        guard !email.isEmpty, let password = form["password"] else {
            page.message = "Enter your e-mail address and a password."
            return signUpPage(page, csrf: transaction.csrf)
        }
        do {
            var signUp = AccountService.SignUp(email: email, password: password)
            // SPEC §19: the invitation's metadata on the account it made.
            signUp.appMetadata = invitation?.appMetadata?.objectValue ?? [:]
            signUp.userMetadata = invitation?.userMetadata?.objectValue ?? [:]
            let record = try await accounts.signUp(signUp, from: caller)
            return try await signedIn(
                record.user, transactionID: id, client: client, request: request, context: context)
        } catch let refusal as AccountService.SignUpRefusal {
            switch refusal {
            case .disabled:
                page.disabled = true
                page.status = .badRequest
            case .tooMany:
                page.message = "Too many sign-ups from your network. Try again in an hour."
                page.status = .tooManyRequests
            case .invalidEmail:
                page.message = "Enter a valid e-mail address."
                page.status = .badRequest
            case .invalidPassword(let violation):
                page.message = "Choose another password: \(violation.message.lowercased())."
                page.brokenRules = BrokenRules(violation)
                page.status = .badRequest
            case .invalidSignup:
                page.message = Self.signupFailedMessage
                page.status = .badRequest
            }
            return signUpPage(page, csrf: transaction.csrf)
        }
    }

    /// `POST /u/passkey/signup-options` (SPEC §17): the creation options of "Create a passkey" for the address typed
    /// on the sign-up page of this login, after the sign-up checks of §15.1 (a refusal: 400 with the page's sentence;
    /// 403 `access_denied` while passkeys are off).
    func passkeySignUpOptions(_ request: Request, context: WardenRequestContext) async throws -> Response {
        let form = try await HostedPages.readForm(request)
        let (id, transaction, client) = try await pending(form["state"])
        guard CSRFCookie.isValid(field: form["csrf"], request: request, expected: transaction.csrf) else {
            throw ErrorPage.unverifiedForm
        }
        guard try await PasskeyPolicy.current(database).enabled else {
            return try PasskeyPolicy.disabled.response(from: request, context: context)
        }
        let caller = AccountService.Caller(
            client: client, request: request, context: context, trustedProxies: trustedProxies)
        let signUp: PasskeyCeremonies.Pending.SignUp
        do {
            signUp = try await accounts.admitPasskeySignUp(email: form["email"] ?? "", name: nil, caller: caller)
        } catch let refusal as AccountService.SignUpRefusal {
            let message =
                switch refusal {
                case .disabled: "Sign-up is turned off."
                case .tooMany: "Too many sign-ups from your network. Try again in an hour."
                case .invalidEmail: "Enter a valid e-mail address."
                case .invalidPassword, .invalidSignup: Self.signupFailedMessage
                }
            return try OAuthError(.init(rawValue: "invalid_signup"), message).response(from: request, context: context)
        }
        guard let (options, session) = try await passkeys.registrationOptions(signUp, client: client, transactionID: id)
        else { return try PasskeyPolicy.disabled.response(from: request, context: context) }
        return PasskeyController.answer(options, session)
    }

    /// Where the sign-up page's script asks for a passkey's creation options, while passkeys are on.
    private func passkeySignUpOptionsURL(_ settings: AccountService.Settings) -> String? {
        settings.passkeys.enabled ? flow.basePath + "u/passkey/signup-options" : nil
    }

    private func signUpPage(_ page: SignUpPage, csrf: String) -> Response {
        flow.withCSRFCookie(PageRenderer.shared.response(page), token: csrf)
    }
}
