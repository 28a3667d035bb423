import Hummingbird
import WardenCore
import WardenWire

/// `/api/v2/post-login-rules` (SPEC §8 "Post-login rules", §9, §12): rules that deny a login, or ask for a second
/// factor (`"action": "require_mfa"`), when their condition holds. A condition that does not parse is refused with 400 `invalid_body` carrying ``RuleParser``'s message,
/// which names the position. Logins read the rules from storage, so no cache is reloaded after a change.
struct PostLoginRulesController {
    let runtime: WardenRuntime
    var audit: ManagementAudit { ManagementAudit(runtime: runtime) }

    /// The longest `name` and `deny_reason` (the reason travels in a redirect URI).
    static let maximumTextLength = 1000
    /// The properties of a request body: all of the rule's but `id`.
    private static let writable = PostLoginRule.propertyNames.subtracting(["id"])

    func addRoutes(to group: RouterGroup<WardenRequestContext>) {
        group.get("post-login-rules") { request, context in
            try context.requireScope("read:post_login_rules")
            let (page, totals) = try ManagementRequest.paging(request)
            let result = try await runtime.store.postLoginRules(page: page)
            return ManagementResponse.list(
                try result.items.map { try ManagementResponse.object(of: $0) }, total: result.total, page: page,
                includeTotals: totals, name: "post_login_rules")
        }
        group.post("post-login-rules") { request, context in
            try await audit.change("Create a post-login rule", scope: "create:post_login_rules", request, context) {
                let rule = try await create(try await ManagementRequest.object(request))
                return Response.json(try ManagementResponse.object(of: rule), status: .created)
            }
        }
        group.get("post-login-rules/:id") { _, context in
            try context.requireScope("read:post_login_rules")
            return Response.json(try ManagementResponse.object(of: try await rule(context)))
        }
        group.patch("post-login-rules/:id") { request, context in
            try await audit.change("Update a post-login rule", scope: "update:post_login_rules", request, context) {
                var rule = try await rule(context)
                try await update(&rule, with: try await ManagementRequest.object(request))
                return Response.json(try ManagementResponse.object(of: rule))
            }
        }
        group.delete("post-login-rules/:id") { request, context in
            try await audit.change("Delete a post-login rule", scope: "delete:post_login_rules", request, context) {
                let id = try ManagementRequest.parameter("id", of: context)
                guard try await runtime.store.deletePostLoginRule(id: id) else { throw Self.notFound }
                return ManagementResponse.noContent
            }
        }
    }

    static let notFound = ManagementError.notFound("post_login_rule", "The post-login rule does not exist")

    private func rule(_ context: WardenRequestContext) async throws -> PostLoginRule {
        try await rule(id: try ManagementRequest.parameter("id", of: context))
    }

    /// The rule `id`, or 404 `inexistent_post_login_rule`.
    func rule(id: String) async throws -> PostLoginRule {
        guard let rule = try await runtime.store.postLoginRule(id: id) else { throw Self.notFound }
        return rule
    }

    /// Validates `members` as the body of `POST /post-login-rules` and stores the rule, last in order; shared
    /// by the Management API and the console (SPEC §14).
    func create(_ members: [String: JSONValue]) async throws -> PostLoginRule {
        let body = try ManagementBody(checking: members, allowed: Self.writable)
        let last = try await runtime.store.postLoginRules(page: nil).items.map(\.order).max()
        var rule = PostLoginRule(
            id: RandomToken.identifier(prefix: PostLoginRule.idPrefix, length: 16), name: "", enabled: true,
            order: last.map { $0 + 1 } ?? 1, condition: "", denyReason: "")
        try Self.apply(body, to: &rule, creating: true)
        try await runtime.store.insertPostLoginRule(rule)
        return rule
    }

    /// Validates `members` as the body of `PATCH /post-login-rules/{id}` and stores `rule` with its changes;
    /// shared by the Management API and the console (SPEC §14).
    func update(_ rule: inout PostLoginRule, with members: [String: JSONValue]) async throws {
        try Self.apply(try ManagementBody(checking: members, allowed: Self.writable), to: &rule, creating: false)
        let changed = rule
        try await ManagementRequest.write("post_login_rule") {
            try await runtime.store.updatePostLoginRule(changed)
        }
    }

    /// Sets what `body` carries; when `creating`, `name` and `condition` are required. A `deny` rule needs a
    /// `deny_reason` (a `require_mfa` rule does not), also when a PATCH makes it one. No property may be `null`.
    private static func apply(_ body: ManagementBody, to rule: inout PostLoginRule, creating: Bool) throws {
        if creating || body.has("name") { rule.name = try text(body, "name") }
        if body.has("action") {
            rule.action = try present(body, "action", try body.value("action", oneOf: PostLoginRuleAction.all))
        }
        if body.has("deny_reason") { rule.denyReason = try text(body, "deny_reason") }
        if creating || body.has("condition") {
            let condition = try body.requiredString("condition")
            do {
                _ = try RuleParser.parse(condition)
            } catch {
                throw body.invalid("condition", error.message)
            }
            rule.condition = condition
        }
        if body.has("enabled") {
            rule.enabled = try present(body, "enabled", try body.bool("enabled"))
        }
        if body.has("order") {
            rule.order = try present(body, "order", try body.integer("order", in: 0...Int(Int32.max)))
        }
        guard rule.action != .deny || !rule.denyReason.isEmpty else {
            throw body.invalid("deny_reason", "Missing required property or empty string")
        }
    }

    /// A required non-blank string of at most ``maximumTextLength`` characters.
    private static func text(_ body: ManagementBody, _ key: String) throws -> String {
        let text = try body.requiredString(key)
        guard text.count <= maximumTextLength else {
            throw body.invalid(key, "Expected at most \(maximumTextLength) characters")
        }
        return text
    }

    /// `value`, read from `key`, which the body carries: `nil` there means `null`, refused.
    private static func present<Value>(_ body: ManagementBody, _ key: String, _ value: Value?) throws -> Value {
        guard let value else { throw body.invalid(key, "Expected a value but found null") }
        return value
    }
}
