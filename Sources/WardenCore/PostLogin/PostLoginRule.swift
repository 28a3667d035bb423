public import WardenWire

/// A post-login rule (SPEC §8 "Post-login rules", §12), the Management API's `/api/v2/post-login-rules` object:
/// when `enabled` and its `condition` holds for a login, its `action` applies: `deny` (the default) denies the
/// login with `access_denied` and `deny_reason`, `require_mfa` asks for a second factor. Enabled rules run in
/// ascending `order` (ties by creation); the first matching `deny` rule denies.
public struct PostLoginRule: Codable, Sendable, Equatable {
    /// The prefix of rule ids: `plr_…`.
    public static let idPrefix = "plr_"

    public var id: String
    public var name: String
    public var enabled: Bool
    public var order: Int
    /// An expression of ``RuleParser``'s grammar; the Management API stores only conditions that parse.
    public var condition: String
    /// The `error_description` of the denial.
    public var denyReason: String
    public var action: PostLoginRuleAction

    enum CodingKeys: String, CodingKey, CaseIterable {
        case id, name, enabled, order, condition, action
        case denyReason = "deny_reason"
    }

    /// The JSON property names of the object.
    public static let propertyNames: Set<String> = Set(CodingKeys.allCases.map(\.rawValue))

    public init(
        id: String, name: String, enabled: Bool, order: Int, condition: String, denyReason: String,
        action: PostLoginRuleAction = .deny
    ) {
        self.id = id
        self.name = name
        self.enabled = enabled
        self.order = order
        self.condition = condition
        self.denyReason = denyReason
        self.action = action
    }
}

/// What a matching post-login rule does (SPEC §12 `"action"`): an open set of wire values, validated by the
/// Management API.
public struct PostLoginRuleAction: OpenStringValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The login is denied with `access_denied` and the rule's `deny_reason` (the default).
    public static let deny: PostLoginRuleAction = "deny"
    /// The login needs a second factor (SPEC §12 "When MFA is required").
    public static let requireMFA: PostLoginRuleAction = "require_mfa"

    /// The actions a rule may have.
    public static let all: [PostLoginRuleAction] = [.deny, .requireMFA]
}
