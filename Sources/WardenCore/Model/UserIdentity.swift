public import WardenWire

/// An identity an upstream vouches for, and the user it belongs to (SPEC §15 "Users"): an entry of a user's
/// `identities`. A database user's identity is implied by its id and never stored.
public struct UserIdentity: Sendable, Equatable {
    /// The connection's id and name.
    public var connectionID: String
    public var connection: String
    /// The strategy of the connection (`provider` on the wire).
    public var provider: ConnectionStrategy
    /// The upstream's id of the person, as text.
    public var userID: String
    /// Whether the wire shows ``userID`` as a JSON number (GitHub's ids are numbers).
    public var isNumber: Bool
    public var isSocial: Bool
    /// The profile the upstream brought (its claims, or the mapped attributes).
    public var profileData: [String: JSONValue]

    public init(
        connectionID: String, connection: String, provider: ConnectionStrategy, userID: String, isNumber: Bool = false,
        profileData: [String: JSONValue] = [:]
    ) {
        self.connectionID = connectionID
        self.connection = connection
        self.provider = provider
        self.userID = userID
        self.isNumber = isNumber
        self.isSocial = provider.isSocial
        self.profileData = profileData
    }

    /// The Warden `user_id` of the user this identity first made (SPEC §15 "Users"): `{strategy}|{id}` for social
    /// connections (`github|1234567`), `oauth2|{connection}|{id}` for OAuth 2.0 ones, and
    /// `{strategy}|{connection}|{id}` for enterprise ones (`oidc|acme|248289761001`).
    public var wardenUserID: String {
        switch provider {
        case .oauth2: "oauth2|\(connection)|\(userID)"
        case _ where isSocial: "\(provider.rawValue)|\(userID)"
        default: "\(provider.rawValue)|\(connection)|\(userID)"
        }
    }

    /// The identity's `user_id` on the wire: a number for GitHub, `{connection}|{id}` for enterprise and OAuth 2.0
    /// connections, the upstream id for other social ones.
    public var wireUserID: JSONValue {
        if isNumber, let number = Double(userID) { return .number(number) }
        return provider == .oauth2 || !isSocial ? .string("\(connection)|\(userID)") : .string(userID)
    }

    /// The entry of `identities[]`: `{"connection", "provider", "user_id", "isSocial", "profileData"?}`.
    public var wireObject: [String: JSONValue] {
        var object: [String: JSONValue] = [
            "connection": .string(connection), "provider": .string(provider.rawValue), "user_id": wireUserID,
            "isSocial": .bool(isSocial),
        ]
        if !profileData.isEmpty { object["profileData"] = .object(profileData) }
        return object
    }
}
