import SQLKit
public import WardenCore

import struct Foundation.Date

/// `post_login_rules(id, name, enabled, rule_order, condition, deny_reason, action, created_at, updated_at)` (SPEC §8
/// "Post-login rules", §12 `action`), read in run order through the index on `(rule_order, created_at, id)`.
extension SQLStore {
    public func insertPostLoginRule(_ rule: PostLoginRule) async throws {
        let now = Date().millisecondsSince1970
        try await UniqueViolation.mapped("The post-login rule \(rule.id) already exists") {
            try await sql.insert(into: "post_login_rules")
                .columns(["id", "created_at"] + Self.ruleColumns(rule).map(\.name))
                .values([rule.id, now] + Self.ruleColumns(rule).map(\.value))
                .run()
        }
    }

    public func postLoginRule(id: String) async throws -> PostLoginRule? {
        try await sql.select().column(SQLLiteral.all).from("post_login_rules").where("id", .equal, id)
            .first().map(Self.rule)
    }

    public func postLoginRules(page: PageRequest?) async throws -> PageResult<PostLoginRule> {
        try await fetchPage(from: "post_login_rules", orderBy: Self.runOrder, page: page) { try Self.rule($0) }
    }

    public func enabledPostLoginRules() async throws -> [PostLoginRule] {
        try await fetchPage(
            from: "post_login_rules", where: Self.equals("enabled", true), orderBy: Self.runOrder, page: nil
        ) { try Self.rule($0) }.items
    }

    /// Replaces everything but the id and `created_at`.
    public func updatePostLoginRule(_ rule: PostLoginRule) async throws {
        let update = sql.update("post_login_rules")
        for column in Self.ruleColumns(rule) {
            update.set(column.name, to: column.value)
        }
        guard try await update.where("id", .equal, rule.id).returning("id").first() != nil else {
            throw StorageError.notFound
        }
    }

    public func deletePostLoginRule(id: String) async throws -> Bool {
        try await sql.delete(from: "post_login_rules").where("id", .equal, id).returning("id").first() != nil
    }

    private static let runOrder = ascending("rule_order", "created_at", "id")

    /// The columns besides `id` and `created_at`, which never change; `updated_at` is now.
    private static func ruleColumns(_ rule: PostLoginRule) -> [(name: String, value: any Encodable & Sendable)] {
        [
            ("name", rule.name), ("enabled", rule.enabled), ("rule_order", rule.order),
            ("condition", rule.condition), ("deny_reason", rule.denyReason), ("action", rule.action.rawValue),
            ("updated_at", Date().millisecondsSince1970),
        ]
    }

    private static func rule(_ row: any SQLRow) throws -> PostLoginRule {
        PostLoginRule(
            id: try row.value("id"), name: try row.value("name"), enabled: try row.value("enabled"),
            order: try row.value("rule_order"), condition: try row.value("condition"),
            denyReason: try row.value("deny_reason"), action: PostLoginRuleAction(rawValue: try row.value("action")))
    }
}
