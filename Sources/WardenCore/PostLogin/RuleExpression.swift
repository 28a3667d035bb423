public import WardenWire

/// A parsed post-login rule condition (SPEC §8 "Post-login rules"), made by ``RuleParser`` and run by
/// ``RuleEvaluator``.
///
/// `&&` and `||` chains are flat: `a && b && c` is one ``and(_:)`` of three operands, so a long condition never
/// makes a deep tree.
public indirect enum RuleExpression: Sendable, Hashable {
    /// `"string"`, a number, `true`, `false`, `null`, or an array of those.
    case literal(JSONValue)
    /// A value of the login event; `null` when the event has none there.
    case path(RulePath)
    /// `exists(path)`: whether the event has a non-null value at `path`.
    case exists(RulePath)
    /// `!operand`: `true` unless the operand is `true`.
    case not(RuleExpression)
    /// `left == right`, `left != right`, `left in right`.
    case comparison(RuleExpression, RuleComparison, RuleExpression)
    /// `a && b && …`: `true` when every operand is `true`.
    case and([RuleExpression])
    /// `a || b || …`: `true` when some operand is `true`.
    case or([RuleExpression])
}

/// The comparison operators of a rule condition (SPEC §8).
public enum RuleComparison: String, Sendable, Hashable, CaseIterable {
    /// Same type and equal.
    case equal = "=="
    /// Same type and different.
    case notEqual = "!="
    /// The right side is an array with an element of the left side's type equal to it.
    case `in`
}

/// A path into the login event, `event.` followed by segments; only the paths SPEC §8 lists are valid
/// (``RulePath/init(segments:)``).
public struct RulePath: Sendable, Hashable {
    /// The segments after `event`, e.g. `["request", "geoip", "countryCode"]`.
    public let segments: [String]

    /// The path, or `nil` when SPEC §8 does not list it: `request.ip|asn|user_agent|geoip.countryCode`,
    /// `session_transfer_token` and its `client_id|scope|request.ip|request.asn|request.user_agent|
    /// request.geoip.countryCode`, `user.user_id|email|email_verified`, `user.app_metadata` and
    /// `user.user_metadata` and anything under them, `client.client_id|name|app_type`, `connection.name|strategy`
    /// (SPEC §15).
    public init?(segments: [String]) {
        guard Self.leaves.contains(segments) || Self.isMetadata(segments) else { return nil }
        self.segments = segments
    }

    private static let requestFields: [[String]] = [["ip"], ["asn"], ["user_agent"], ["geoip", "countryCode"]]

    private static let leaves: Set<[String]> = {
        var leaves: Set<[String]> = [["session_transfer_token"]]
        for field in requestFields {
            leaves.insert(["request"] + field)
            leaves.insert(["session_transfer_token", "request"] + field)
        }
        for field in ["client_id", "scope"] { leaves.insert(["session_transfer_token", field]) }
        for field in ["user_id", "email", "email_verified", "app_metadata", "user_metadata"] {
            leaves.insert(["user", field])
        }
        for field in ["client_id", "name", "app_type"] { leaves.insert(["client", field]) }
        for field in ["name", "strategy"] { leaves.insert(["connection", field]) }
        return leaves
    }()

    private static func isMetadata(_ segments: [String]) -> Bool {
        segments.count > 2 && segments[0] == "user" && ["app_metadata", "user_metadata"].contains(segments[1])
    }
}
