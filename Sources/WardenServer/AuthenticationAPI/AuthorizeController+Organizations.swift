import Foundation
import Hummingbird
import WardenCore
import WardenWire

/// The organization prompts of a `require` client (SPEC §19 `organization_require_behavior`):
/// `GET|POST /u/organization?state=…` asks for the organization's name before the login (`pre_login_prompt`);
/// `POST /u/organization/pick` takes the organization the user picked after it (`post_login_prompt`, the picker
/// ``AuthorizationFlow`` shows when the user has several).
extension AuthorizeController {
    func addOrganizationRoutes(to router: Router<WardenRequestContext>) {
        router.get("u/organization") { request, context in
            await page(context) { try await showOrganizationPrompt(request) }
        }
        router.post("u/organization") { request, context in
            await page(context) { try await organizationPrompt(request, context: context) }
        }
        router.post("u/organization/pick") { request, context in
            await page(context) { try await organizationPick(request) }
        }
    }

    func showOrganizationPrompt(_ request: Request) async throws -> Response {
        let (id, transaction, client) = try await pending(
            QueryParameters(request.uri.query)?["state"], stage: .organizationPrompt)
        return promptPage(
            OrganizationPromptPage(
                clientName: DisplayText.clean(client.name), formAction: flow.organizationPath, state: id,
                csrf: transaction.csrf))
    }

    /// `POST /u/organization`: an organization of that name continues the request as if it had named it; an
    /// unknown name shows the form again saying so (400).
    func organizationPrompt(_ request: Request, context: WardenRequestContext) async throws -> Response {
        let form = try await HostedPages.readForm(request)
        let (id, transaction, client) = try await pending(form["state"], stage: .organizationPrompt)
        guard CSRFCookie.isValid(field: form["csrf"], request: request, expected: transaction.csrf) else {
            throw ErrorPage.unverifiedForm
        }
        let name = String((form["organization"] ?? "").trimmingCharacters(in: .whitespaces).lowercased().prefix(64))
        var page = OrganizationPromptPage(
            clientName: DisplayText.clean(client.name), formAction: flow.organizationPath, state: id,
            csrf: transaction.csrf, name: name)
        guard Organization.isValidName(name), let organization = try await validator.organization(named: name) else {
            page.message =
                name.isEmpty
                ? "Enter your organization's name."
                : "There is no organization named “\(DisplayText.clean(name))”. Check the name and try again."
            page.status = .badRequest
            return promptPage(page)
        }
        guard let parked = try await flow.transactions.consume(id, stage: .organizationPrompt),
            var authorization = parked.request
        else { throw ErrorPage.expiredTransaction }
        authorization.organization = organization.id
        return try await proceed(
            authorization, client: client, query: QueryParameters("")!, request: request, context: context)
    }

    /// `POST /u/organization/pick`: the picked organization ends the login of the session that was shown the
    /// picker; the admission checks the membership again (SPEC §19).
    func organizationPick(_ request: Request) async throws -> Response {
        let form = try await HostedPages.readForm(request)
        let (id, transaction, client) = try await pending(form["state"], stage: .organizationPick)
        guard CSRFCookie.isValid(field: form["csrf"], request: request, expected: transaction.csrf) else {
            throw ErrorPage.unverifiedForm
        }
        guard let picked = form["organization"], !picked.isEmpty else { throw ErrorPage.unreadableForm }
        guard let parked = try await flow.transactions.consume(id, stage: .organizationPick),
            var authorization = parked.request,
            let session = try await flow.sessions.current(request), session.id == parked.sessionID,
            let user = try await flow.activeUser(of: session)
        else { throw ErrorPage.expiredTransaction }
        authorization.organization = String(picked.prefix(64))
        return try await flow.complete(authorization, client: client, session: session, user: user)
    }

    private func promptPage(_ page: OrganizationPromptPage) -> Response {
        flow.withCSRFCookie(PageRenderer.shared.response(page), token: page.csrf)
    }
}
