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
        return signUpPage(
            SignUpPage(
                clientName: client.name, formAction: flow.signupPath, state: id, csrf: transaction.csrf,
                loginURL: flow.loginPath + "?state=" + id, disabled: settings.signupDisabled),
            csrf: transaction.csrf)
    }

    func signUp(_ request: Request, context: WardenRequestContext) async throws -> Response {
        let form = try await HostedPages.readForm(request)
        let (id, transaction, client) = try await pending(form["state"])
        guard CSRFCookie.isValid(field: form["csrf"], request: request, expected: transaction.csrf) else {
            throw ErrorPage.unverifiedForm
        }
        let email = form["email"] ?? ""
        var page = SignUpPage(
            clientName: client.name, formAction: flow.signupPath, state: id, csrf: transaction.csrf, email: email,
            loginURL: flow.loginPath + "?state=" + id)
        guard !email.isEmpty, let password = form["password"] else {
            page.message = "Enter your e-mail address and a password."
            return signUpPage(page, csrf: transaction.csrf)
        }
        let caller = AccountService.Caller(
            clientID: client.clientID, clientName: client.name,
            ip: ClientAddress.ip(of: request, context: context, trusted: trustedProxies),
            userAgent: request.headers[.userAgent])
        do {
            let record = try await accounts.signUp(
                AccountService.SignUp(email: email, password: password), from: caller)
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

    private func signUpPage(_ page: SignUpPage, csrf: String) -> Response {
        flow.withCSRFCookie(PageRenderer.shared.response(page), token: csrf)
    }
}
