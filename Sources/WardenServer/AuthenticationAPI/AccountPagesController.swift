import Foundation
import Hummingbird
import WardenCore
import WardenWire

/// The hosted pages of password reset and e-mail verification (SPEC §15.1), outside any login:
/// `GET|POST /u/reset-password` (without a ticket: the request form, which answers the same for every address;
/// with one: the new password, twice) and `GET /u/email-verification?ticket=…`. Their forms carry a CSRF token
/// that the page sets as the hosted pages' CSRF cookie too (double submit); a post without both is refused.
struct AccountPagesController: Sendable {
    let accounts: AccountService
    let flow: AuthorizationFlow
    let database: any WardenStore
    let trustedProxies: [CIDR]

    func addRoutes(to router: Router<WardenRequestContext>) {
        router.get("u/reset-password") { request, context in
            await HostedPages.respond(context, store: database) { try await showReset(request) }
        }
        router.post("u/reset-password") { request, context in
            await HostedPages.respond(context, store: database) { try await reset(request, context: context) }
        }
        router.get("u/email-verification") { request, context in
            await HostedPages.respond(context, store: database) { try await verify(request, context: context) }
        }
    }

    /// `GET /u/reset-password[?state=…]` (from the login page) or `?ticket=…` (from the e-mail).
    func showReset(_ request: Request) async throws -> Response {
        let query = QueryParameters(request.uri.query)
        let csrf = Self.csrfToken(request)
        if let ticket = query?["ticket"] {
            guard let (_, record) = try await accounts.pendingReset(ticket: ticket) else { throw Self.unusableLink }
            return page(
                PasswordResetPage(
                    email: record.user.email ?? record.user.userID, formAction: flow.resetPath, ticket: ticket,
                    csrf: csrf),
                csrf: csrf)
        }
        return page(requestPage(state: query?["state"], csrf: csrf), csrf: csrf)
    }

    /// `POST /u/reset-password`: with `ticket`, sets the new password; otherwise asks for a link for `email`.
    func reset(_ request: Request, context: WardenRequestContext) async throws -> Response {
        let form = try await HostedPages.readForm(request)
        guard CSRFCookie.isValid(field: form["csrf"], request: request) else { throw ErrorPage.unverifiedForm }
        let csrf = Self.csrfToken(request)
        let caller = AccountService.Caller(
            client: nil, request: request, context: context, trustedProxies: trustedProxies)
        guard let ticket = form["ticket"] else {
            var page = requestPage(state: form["state"], csrf: csrf)
            guard let email = form["email"], !email.isEmpty else {
                page.message = "Enter the e-mail address of your account."
                page.status = .badRequest
                return self.page(page, csrf: csrf)
            }
            switch try await accounts.requestPasswordReset(email: email, caller: caller) {
            case .answered:
                page.sent = DatabaseConnectionsController.resetAnswer
            case .tooMany:
                page.email = email
                page.message = "Too many requests from your network. Try again in an hour."
                page.status = .tooManyRequests
            }
            return self.page(page, csrf: csrf)
        }
        guard let (_, record) = try await accounts.pendingReset(ticket: ticket) else {
            accounts.refuseUnusableReset(caller: caller)
            throw Self.unusableLink
        }
        var page = PasswordResetPage(
            email: record.user.email ?? record.user.userID, formAction: flow.resetPath, ticket: ticket, csrf: csrf)
        guard let password = form["password"], !password.isEmpty else {
            page.message = "Enter the new password twice."
            page.status = .badRequest
            return self.page(page, csrf: csrf)
        }
        guard form["password_confirmation"] == password else {
            page.message = "The two passwords differ. Enter the same password twice."
            page.status = .badRequest
            return self.page(page, csrf: csrf)
        }
        switch try await accounts.resetPassword(ticket: ticket, password: password, caller: caller) {
        case .unusable:
            throw Self.unusableLink
        case .refused(let violation):
            page.message = "Choose another password: \(violation.message.lowercased())."
            page.brokenRules = BrokenRules(violation)
            page.status = .badRequest
            return self.page(page, csrf: csrf)
        case .changed(_, let continueURL):
            return PageRenderer.shared.response(
                NoticePage(
                    title: "Password changed",
                    message: "Your password is changed, and you are signed out everywhere.",
                    advice: continueURL == nil
                        ? "Go back to the application and sign in with the new password."
                        : "Continue, and sign in with the new password.",
                    link: continueURL.map { .init(url: $0, label: "Continue") }))
        }
    }

    /// `GET /u/email-verification?ticket=…`: verifies the address (once).
    func verify(_ request: Request, context: WardenRequestContext) async throws -> Response {
        let caller = AccountService.Caller(
            client: nil, request: request, context: context, trustedProxies: trustedProxies)
        guard let ticket = QueryParameters(request.uri.query)?["ticket"],
            case .verified(let user, let continueURL) = try await accounts.verifyEmail(ticket: ticket, caller: caller)
        else {
            throw NoticePage(
                title: "Link not valid",
                message: "This verification link was already used, has expired, or is not valid.",
                advice: "If your address is not verified yet, ask the application to send a new link.",
                status: .badRequest)
        }
        return PageRenderer.shared.response(
            NoticePage(
                title: "E-mail address verified",
                message: "Your e-mail address \(user.email ?? "") is verified. Thank you.",
                advice: continueURL == nil ? "You can close this window." : "Continue to the application.",
                link: continueURL.map { .init(url: $0, label: "Continue") }))
    }

    /// The page of a reset link that was used, expired or never issued.
    static let unusableLink = NoticePage(
        title: "Link not valid",
        message: "This password reset link was already used, has expired, or is not valid.",
        advice: "Ask for a new link from the sign-in page (“Forgot password?”). Reset links work for 5 minutes.",
        status: .badRequest)

    /// The token of the page's form: the browser's CSRF cookie when it has one (so that a page opened in another
    /// tab keeps working), else a new one.
    private static func csrfToken(_ request: Request) -> String {
        guard let cookie = request.cookies[CSRFCookie.name]?.value, cookie.utf8.count >= 32 else {
            return RandomToken.make()
        }
        return cookie
    }

    private func requestPage(state: String?, csrf: String) -> PasswordResetRequestPage {
        PasswordResetRequestPage(
            formAction: flow.resetPath, csrf: csrf, state: state,
            loginURL: state.map { flow.loginPath + "?state=" + $0 })
    }

    private func page(_ page: some Page, csrf: String) -> Response {
        flow.withCSRFCookie(PageRenderer.shared.response(page), token: csrf)
    }
}
