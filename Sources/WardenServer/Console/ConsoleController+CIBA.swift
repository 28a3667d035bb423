import Foundation
import Hummingbird
import WardenCore
import WardenWire

/// The pending CIBA requests page (SPEC §14): what is waiting for a user's answer, refreshed every 10 seconds,
/// with "Cancel" on each — a cancelled request is denied, so the client's next poll answers `access_denied`.
struct ConsoleBackchannelPage: Page {
    static let template = "console_ciba"
    static let perPage = 50
    let title = "Pending CIBA requests"
    var chrome: ConsoleChrome
    var requests: [Row]
    var notice: String?
    var refreshSeconds = 10

    struct Row: Sendable {
        /// The consent id `cns_…`: names the request in the cancel form (never the `auth_req_id`).
        var consentID: String
        var started: String
        var expires: String
        var client: String
        var user: String
        var bindingMessage: String
        var channel: String
    }

    static let source = """
        {{<layout}}{{$content}}{{#page}}
        {{#notice}}<p class="notice" role="status">{{notice}}</p>{{/notice}}
        <p class="hint">Requests waiting for the user's answer, newest first; this page reloads every
        {{refreshSeconds}} seconds.</p>
        <div class="table"><table>
        <caption>Pending requests</caption>
        <thead><tr><th scope="col">Started (UTC)</th><th scope="col">Client</th><th scope="col">User</th>
        <th scope="col">Binding message</th><th scope="col">Channel</th><th scope="col">Expires (UTC)</th>
        <th scope="col"><span class="visually-hidden">Action</span></th></tr></thead>
        <tbody>
        {{#requests}}<tr><td data-label="Started">{{started}}</td><td data-label="Client">{{client}}</td>
        <td data-label="User">{{user}}</td><td data-label="Binding message">{{bindingMessage}}</td>
        <td data-label="Channel">{{channel}}</td><td data-label="Expires">{{expires}}</td><td>
        <form method="post" action="{{chrome.base}}ciba/{{consentID}}/cancel">
        <input type="hidden" name="csrf" value="{{chrome.csrf}}">
        <button type="submit" class="danger" aria-label="Cancel the request of {{user}}: {{bindingMessage}}">Cancel</button>
        </form></td></tr>
        {{/requests}}
        {{^requests}}<tr><td colspan="7">No request is waiting.</td></tr>{{/requests}}
        </tbody></table></div>
        {{/page}}{{/content}}{{/layout}}
        """
}

extension ConsoleController {
    func addBackchannelRoutes(to admin: RouterGroup<WardenRequestContext>) {
        admin.get("ciba") { request, context in
            await page(request, context, current: "CIBA") { chrome in
                let pending = try await pendingRequests.pendingBackchannelRequests(
                    at: clock.now(), page: PageRequest(page: 0, perPage: ConsoleBackchannelPage.perPage))
                var rows: [ConsoleBackchannelPage.Row] = []
                for request in pending.items {
                    let client = try await tenant.client(id: request.clientID)?.client.name ?? request.clientID
                    let user = try await users.user(id: request.userID)?.user
                    rows.append(
                        ConsoleBackchannelPage.Row(
                            consentID: request.consentID, started: ConsolePages.time(request.createdAt),
                            expires: ConsolePages.time(request.expiresAt),
                            client: DisplayText.clean(client),
                            user: DisplayText.clean(user?.email ?? request.userID),
                            bindingMessage: DisplayText.clean(request.bindingMessage), channel: request.channel.rawValue
                        ))
                }
                let done = request.uri.queryParameters["done"].map(String.init)
                return ConsoleBackchannelPage(
                    chrome: chrome, requests: rows,
                    notice: done == "cancelled"
                        ? "The request was cancelled: the client's next poll answers access_denied." : nil)
            }
        }
        admin.post("ciba/:consent/cancel") { request, context in
            await change(request, context, "Cancel a CIBA request") { _ in
                let consentID = try context.parameters.require("consent")
                guard let pending = try await requestsByConsent.backchannelRequest(consentID: consentID) else {
                    throw ErrorPage(
                        title: "No such request", message: "There is no CIBA request \(consentID).",
                        advice: "Go back to \(base)ciba.", status: .notFound)
                }
                switch try await backchannel.decide(pending, approved: false) {
                case .decided: return base + "ciba?done=cancelled"
                case .alreadyDecided, .expired, .notFound:
                    throw ErrorPage(
                        title: "Already answered",
                        message: "This request was answered, redeemed or expired before it could be cancelled.",
                        advice: "Go back to \(base)ciba.", status: .conflict)
                }
            }
        }
    }
}
