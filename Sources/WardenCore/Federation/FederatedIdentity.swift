public import WardenWire

/// A user's id at an upstream identity provider (SPEC §15 "Users"): GitHub's numeric id, or the `sub` (or another
/// field) of any other provider as a string.
public enum UpstreamUserID: Sendable, Hashable, CustomStringConvertible {
    case string(String)
    case number(Int64)

    /// A non-empty string, or a whole number that JSON carries exactly and Warden writes without an exponent (under
    /// 9×10¹⁵ in magnitude); `nil` for anything else.
    public init?(_ value: JSONValue) {
        switch value {
        case .string(let text) where !text.isEmpty:
            self = .string(text)
        case .number(let number) where abs(number) < 9.0e15:
            guard let whole = Int64(exactly: number) else { return nil }
            self = .number(whole)
        default:
            return nil
        }
    }

    /// The id as it appears in a Warden `user_id` (a number in decimal).
    public var description: String {
        switch self {
        case .string(let text): text
        case .number(let number): String(number)
        }
    }

    /// The id as JSON.
    public var jsonValue: JSONValue {
        switch self {
        case .string(let text): .string(text)
        case .number(let number): .number(Double(number))
        }
    }
}

/// One of a user's identities: where the person signed in (SPEC §15 "Users"), an entry of `identities[]`.
public struct FederatedIdentity: Sendable, Hashable {
    /// The connection's `name`.
    public var connection: String
    /// The connection's strategy, the identity's `provider`.
    public var provider: ConnectionStrategy
    /// The user's id at the provider.
    public var userID: UpstreamUserID

    public init(connection: String, provider: ConnectionStrategy, userID: UpstreamUserID) {
        self.connection = connection
        self.provider = provider
        self.userID = userID
    }

    /// The database identity of the Warden user `userID` (`auth0|…`): its `user_id` is the id without the
    /// `auth0|` prefix.
    public init(databaseUserID userID: String) {
        let prefix = ConnectionStrategy.auth0.rawValue + "|"
        let id = userID.hasPrefix(prefix) ? String(userID.dropFirst(prefix.count)) : userID
        self.init(connection: Connection.databaseName, provider: .auth0, userID: .string(id))
    }

    /// Whether the identity is social (`isSocial`).
    public var isSocial: Bool { provider.isSocial }

    /// The identity's `user_id` as text: `{connection}|{id}` for enterprise strategies and `oauth2` (whose upstream
    /// ids are unique only within the connection), the bare upstream id otherwise.
    public var qualifiedUserID: String {
        provider == .oauth2 || provider.strategyType == .enterprise ? "\(connection)|\(userID)" : userID.description
    }

    /// The Warden `user_id` (the `sub` of Warden's tokens) of the user this identity creates: `{strategy}|` and
    /// ``qualifiedUserID`` — `github|1234567`, `oauth2|{connection}|{id}`, `oidc|acme|248289761001`,
    /// `auth0|{id}`.
    public var wardenUserID: String { "\(provider.rawValue)|\(qualifiedUserID)" }

    /// The entry of `identities[]`: `{"connection", "provider", "user_id", "isSocial"}`, where `user_id` is a JSON
    /// number for GitHub and ``qualifiedUserID`` otherwise.
    public var jsonValue: JSONValue {
        let id: JSONValue =
            switch (provider, userID) {
            case (.github, .number): userID.jsonValue
            default: .string(qualifiedUserID)
            }
        return [
            "connection": .string(connection), "provider": .string(provider.rawValue), "user_id": id,
            "isSocial": .bool(isSocial),
        ]
    }
}
