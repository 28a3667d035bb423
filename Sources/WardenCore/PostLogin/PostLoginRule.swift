/// A post-login rule (SPEC §8 "Post-login rules"), the Management API's `/api/v2/post-login-rules` object:
/// when `enabled` and its `condition` holds for a login, the login is denied with `access_denied` and
/// `deny_reason`. Enabled rules run in ascending `order` (ties by creation); the first match denies.
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

    enum CodingKeys: String, CodingKey, CaseIterable {
        case id, name, enabled, order, condition
        case denyReason = "deny_reason"
    }

    /// The JSON property names of the object.
    public static let propertyNames: Set<String> = Set(CodingKeys.allCases.map(\.rawValue))

    public init(id: String, name: String, enabled: Bool, order: Int, condition: String, denyReason: String) {
        self.id = id
        self.name = name
        self.enabled = enabled
        self.order = order
        self.condition = condition
        self.denyReason = denyReason
    }
}
