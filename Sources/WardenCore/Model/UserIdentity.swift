public import WardenWire

/// A stored identity (SPEC §15 "Users"): one an upstream vouched for, the connection's id, and the profile it
/// brought. A database user's own identity is implied by its id and never stored.
public struct UserIdentity: Sendable, Equatable {
    public var connectionID: String
    public var identity: FederatedIdentity
    /// The profile the upstream brought (its claims, or the mapped attributes).
    public var profileData: [String: JSONValue]

    public init(connectionID: String, identity: FederatedIdentity, profileData: [String: JSONValue] = [:]) {
        self.connectionID = connectionID
        self.identity = identity
        self.profileData = profileData
    }

    /// The entry of `identities[]`, with `profileData` when there is one.
    public var jsonValue: JSONValue {
        var object = identity.jsonValue.objectValue ?? [:]
        if !profileData.isEmpty { object["profileData"] = .object(profileData) }
        return .object(object)
    }
}
