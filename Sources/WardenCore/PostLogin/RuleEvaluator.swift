public import WardenWire

/// Runs parsed post-login rule conditions (SPEC §8 "Post-login rules") over one ``LoginEvent``. Evaluation never
/// fails:
/// - a path the event has no value at (no session transfer token, an unknown country, a missing metadata key)
///   is `null`;
/// - `==` is `true` when both sides have the same JSON type and are equal, `!=` when they have the same type and
///   differ: values of different types (`null` included) are never equal nor different, so
///   `event.request.geoip.countryCode != event.session_transfer_token.request.geoip.countryCode` holds only
///   when both countries are known (test presence with `exists(path)`);
/// - `a in b` is `true` when `b` is an array with an element `== a`;
/// - `!`, `&&` and `||` take any value other than `true` as false.
///
/// A rule matches when its condition is `true`.
public struct RuleEvaluator: Sendable {
    /// The event as the paths see it: `{"request", "session_transfer_token", "user", "client"}`.
    private let event: JSONValue

    public init(event: LoginEvent) {
        self.event = event.ruleValue
    }

    /// Whether `condition` is `true` for the event.
    public func matches(_ condition: RuleExpression) -> Bool {
        value(of: condition) == .bool(true)
    }

    /// The value of `expression` for the event.
    public func value(of expression: RuleExpression) -> JSONValue {
        switch expression {
        case .literal(let value): value
        case .path(let path): resolve(path)
        case .exists(let path): .bool(resolve(path) != .null)
        case .not(let operand): .bool(!matches(operand))
        case .and(let operands): .bool(operands.allSatisfy(matches))
        case .or(let operands): .bool(operands.contains(where: matches))
        case .comparison(let left, let comparison, let right):
            .bool(Self.compare(value(of: left), comparison, value(of: right)))
        }
    }

    private func resolve(_ path: RulePath) -> JSONValue {
        var value = event
        for segment in path.segments {
            guard let member = value[segment] else { return .null }
            value = member
        }
        return value
    }

    private static func compare(_ left: JSONValue, _ comparison: RuleComparison, _ right: JSONValue) -> Bool {
        switch comparison {
        case .equal: left.typeName == right.typeName && left == right
        case .notEqual: left.typeName == right.typeName && left != right
        case .in: right.arrayValue?.contains { compare(left, .equal, $0) } ?? false
        }
    }
}

extension LoginEvent {
    /// The event as JSON, named as the rule paths of SPEC §8 name it; absent values are left out.
    var ruleValue: JSONValue {
        let transfer = sessionTransferToken.map { token in
            JSONValue.object([
                "client_id": .string(token.clientID), "scope": .array(token.scope.map(JSONValue.string)),
                "request": token.request.ruleValue,
            ])
        }
        return .present([
            "request": request.ruleValue, "session_transfer_token": transfer,
            "user": .present([
                "user_id": .string(user.userID), "email": user.email.map(JSONValue.string),
                "email_verified": .bool(user.emailVerified), "app_metadata": .object(user.appMetadata),
                "user_metadata": .object(user.userMetadata),
            ]),
            "client": .present([
                "client_id": .string(client.clientID), "name": .string(client.name),
                "app_type": client.appType.map { .string($0.rawValue) },
            ]),
            "connection": .object([
                "name": .string(connectionName), "strategy": .string(connectionStrategy.rawValue),
            ]),
        ])
    }
}

extension LoginEvent.RequestInfo {
    /// `{"ip", "asn", "user_agent", "geoip": {"countryCode"}}`, without the unknown ones.
    var ruleValue: JSONValue {
        .present([
            "ip": ip.map(JSONValue.string), "asn": asn.map { .number(Double($0)) },
            "user_agent": userAgent.map(JSONValue.string),
            "geoip": countryCode.map { .object(["countryCode": .string($0)]) },
        ])
    }
}

extension JSONValue {
    /// The object of the `members` that have a value.
    fileprivate static func present(_ members: [String: JSONValue?]) -> JSONValue {
        .object(members.compactMapValues { $0 })
    }
}
