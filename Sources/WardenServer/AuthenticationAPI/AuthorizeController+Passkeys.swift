import Foundation
import Hummingbird
import WardenCore
import WardenWire

/// The login page's passkey sign-in (SPEC §17 "Hosted pages"): the page's script fetches the request options of its
/// login from `POST /u/passkey/options` (`state`, `csrf`: the browser of the login), asks the browser for a
/// credential and posts it to `POST /u/login` as `passkey_session` and `passkey_response`.
extension AuthorizeController {
    /// `POST /u/passkey/options`: `{"authn_params_public_key", "auth_session"}` for this login; 403 `access_denied`
    /// while passkeys are off.
    func passkeyOptions(_ request: Request, context: WardenRequestContext) async throws -> Response {
        let form = try await HostedPages.readForm(request)
        let (id, transaction, client) = try await pending(form["state"])
        guard CSRFCookie.isValid(field: form["csrf"], request: request, expected: transaction.csrf) else {
            throw ErrorPage.unverifiedForm
        }
        guard let (options, session) = try await passkeys.options(client: client, transactionID: id) else {
            return try PasskeyPolicy.disabled.response(from: request, context: context)
        }
        return PasskeyController.answer(options, session)
    }

    /// `POST /u/login` with a passkey: signed in with `amr` `phr` and `mfa` (the passkey satisfies the MFA policy),
    /// or the login page again with one sentence.
    func passkeyLogin(
        session: String, response: String, id: String, transaction: LoginTransaction, client: Client,
        request: Request, context: WardenRequestContext
    ) async throws -> Response {
        let outcome = try await passkeys.authenticate(
            session: session, response: response, client: client, transactionID: id,
            ip: ClientAddress.ip(of: request, context: context, trusted: trustedProxies),
            userAgent: request.headers[.userAgent])
        switch outcome {
        case .authenticated(let user):
            return try await signedIn(
                user, transactionID: id, client: client, request: request, context: context, firstFactor: .passkey)
        case .refused(let message):
            return flow.loginPage(
                id: id, transaction: transaction, client: client, message: message,
                options: try await federation.loginOptions(for: client, answering: transaction.request))
        }
    }
}
