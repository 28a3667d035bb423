import Foundation
import Hummingbird
import WardenCore
import WardenWire

/// The post-login rules page (SPEC §14, §8): the rules in their order, each enabled or disabled, edited or deleted
/// there, and the form that adds one. A condition that does not parse is refused by `POST /api/v2/post-login-rules`'s
/// validation, whose message names the position, shown next to the condition with the text kept.
struct ConsoleRulesPage: Page {
    static let template = "console_rules"
    let title = "Post-login rules"
    var chrome: ConsoleChrome
    var rows: [Row]
    var notice: String?
    var form: ConsoleFormView

    struct Row: Sendable {
        var href: String
        var order: Int
        var name: String
        var condition: String
        var action: String
        var enabled: Bool
    }

    static let ruleForm = ConsoleForm([
        .init(
            legend: "Rule",
            fields: [
                ConsoleField("name", "Name", .text(whenEmpty: .emptyString)),
                ConsoleField(
                    "condition", "Condition", .textarea,
                    hint: "E.g. user.email_verified == false && client.client_id == \"abc\" (SPEC §8 syntax)."),
                ConsoleField(
                    "action", "When the condition holds",
                    .select(ConsoleField.options(PostLoginRuleAction.all.map(\.rawValue)))),
                ConsoleField(
                    "deny_reason", "Reason given when denying", .text(whenEmpty: .omitted),
                    hint: "Required for deny."),
                ConsoleField("enabled", "Enabled", .checkbox),
                ConsoleField("order", "Order", .number(whenEmpty: .omitted), hint: "Lower runs first; empty: last."),
            ])
    ])

    static let source = """
        {{<layout}}{{$content}}{{#page}}
        {{#notice}}<p class="notice" role="status">{{notice}}</p>{{/notice}}
        <div class="table"><table>
        <caption>Rules, in the order they run</caption>
        <thead><tr><th scope="col">Order</th><th scope="col">Name</th><th scope="col">Condition</th>
        <th scope="col">Action</th><th scope="col">State</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
        <tbody>
        {{#rows}}<tr><td data-label="Order">{{order}}</td><td data-label="Name"><a href="{{href}}">{{name}}</a></td>
        <td data-label="Condition"><code>{{condition}}</code></td><td data-label="Action">{{action}}</td>
        <td data-label="State">{{#enabled}}Enabled{{/enabled}}{{^enabled}}Disabled{{/enabled}}</td><td><div class="actions">
        <form method="post" action="{{href}}/enabled"><input type="hidden" name="csrf" value="{{chrome.csrf}}">
        {{#enabled}}<input type="hidden" name="enabled" value="false"><button type="submit" aria-label="Disable {{name}}">Disable</button>{{/enabled}}
        {{^enabled}}<input type="hidden" name="enabled" value="true"><button type="submit" aria-label="Enable {{name}}">Enable</button>{{/enabled}}
        </form>
        <form method="post" action="{{href}}/delete"><input type="hidden" name="csrf" value="{{chrome.csrf}}">
        <button type="submit" class="danger" aria-label="Delete {{name}}">Delete</button></form></div></td></tr>
        {{/rows}}
        {{^rows}}<tr><td colspan="6">No rule.</td></tr>{{/rows}}
        </tbody></table></div>
        <form class="card settings" method="post" action="{{chrome.base}}rules">
        <h2>Add a rule</h2>
        <input type="hidden" name="csrf" value="{{chrome.csrf}}">
        {{#form}}{{> form_fields}}{{/form}}
        <button type="submit">Add the rule</button>
        </form>
        {{/page}}{{/content}}{{/layout}}
        """
}

/// A post-login rule's page: its fields in one form (PATCH's validation).
struct ConsoleRulePage: Page {
    static let template = "console_rule"
    var title: String
    var chrome: ConsoleChrome
    var path: String
    var form: ConsoleFormView

    static let source = """
        {{<layout}}{{$content}}{{#page}}
        <p><a href="{{chrome.base}}rules">← All rules</a></p>
        {{> save_form}}
        {{/page}}{{/content}}{{/layout}}
        """
}

extension ConsoleController {
    func addRuleRoutes(to admin: RouterGroup<WardenRequestContext>) {
        let rules = PostLoginRulesController(runtime: runtime)
        let form = ConsoleRulesPage.ruleForm
        admin.get("rules") { request, context in
            await page(request, context, current: "Rules") { chrome in
                let notices = [
                    "created": "The rule was added.", "saved": "The rule was saved.",
                    "deleted": "The rule was deleted.",
                ]
                return try await rulesPage(
                    chrome: chrome, form: form.filled(["action": PostLoginRuleAction.deny.rawValue, "enabled": "on"]),
                    notice: ConsolePages.notice(request, notices))
            }
        }
        admin.post("rules") { request, context in
            await submit(
                request, context, "Create a post-login rule", current: "Rules",
                refused: { chrome, typed, error in
                    try await rulesPage(chrome: chrome, form: form.again({ typed[$0] }, refused: error))
                }
            ) { typed, _ in
                _ = try await rules.create(form.body { typed[$0] })
                return .redirect(base + "rules?done=created")
            }
        }
        admin.get("rules/:id") { request, context in
            await page(request, context, current: "Rules") { chrome in
                let rule = try await consoleRule(context, rules)
                return rulePage(rule, chrome: chrome, form: form.showing(try ManagementResponse.object(of: rule)))
            }
        }
        admin.post("rules/:id") { request, context in
            await submit(
                request, context, "Update a post-login rule", current: "Rules",
                refused: { chrome, typed, error in
                    rulePage(
                        try await consoleRule(context, rules), chrome: chrome,
                        form: form.again({ typed[$0] }, refused: error))
                }
            ) { typed, _ in
                var rule = try await consoleRule(context, rules)
                try await rules.update(&rule, with: form.body { typed[$0] })
                return .redirect(base + "rules?done=saved")
            }
        }
        admin.post("rules/:id/enabled") { request, context in
            await change(request, context, "Update a post-login rule") { typed in
                var rule = try await consoleRule(context, rules)
                try await rules.update(&rule, with: ["enabled": .bool(typed["enabled"] == "true")])
                return base + "rules?done=saved"
            }
        }
        admin.post("rules/:id/delete") { request, context in
            await change(request, context, "Delete a post-login rule") { _ in
                let rule = try await consoleRule(context, rules)
                guard try await runtime.store.deletePostLoginRule(id: rule.id) else {
                    throw ConsolePages.refused(base: base, PostLoginRulesController.notFound)
                }
                return base + "rules?done=deleted"
            }
        }
    }

    private func consoleRule(
        _ context: WardenRequestContext, _ rules: PostLoginRulesController
    ) async throws -> PostLoginRule {
        try await shown { try await rules.rule(id: ManagementRequest.parameter("id", of: context)) }
    }

    private func rulesPage(chrome: ConsoleChrome, form: ConsoleForm, notice: String? = nil) async throws
        -> ConsoleRulesPage
    {
        let rows = try await runtime.store.postLoginRules(page: nil).items.map { rule in
            ConsoleRulesPage.Row(
                href: base + "rules/" + Self.pathSegment(rule.id), order: rule.order,
                name: DisplayText.clean(rule.name),
                condition: rule.condition, action: rule.action.rawValue, enabled: rule.enabled)
        }
        return ConsoleRulesPage(chrome: chrome, rows: rows, notice: notice, form: ConsoleFormView(form))
    }

    private func rulePage(_ rule: PostLoginRule, chrome: ConsoleChrome, form: ConsoleForm) -> ConsoleRulePage {
        ConsoleRulePage(
            title: DisplayText.clean(rule.name), chrome: chrome, path: base + "rules/" + Self.pathSegment(rule.id),
            form: ConsoleFormView(form))
    }
}
