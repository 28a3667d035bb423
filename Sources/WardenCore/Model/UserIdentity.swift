public import WardenWire

/// A stored identity (SPEC §15 "Users"): one an upstream vouched for, the connection's id, and the profile it
/// brought. A database user's own identity is implied by its id and never stored.
public struct UserIdentity: Sendable, Equatable {
    public var connectionID: String
    public var identity: FederatedIdentity
    /// The profile the upstream brought (its claims, or the mapped attributes).
    public var profileData: [String: JSONValue]
    /// The upstream's tokens, kept only when the connection asks (SPEC §15 "Upstream tokens"): sealed with
    /// AES-GCM under `WARDEN_DATA_KEY`, never in the clear.
    public var sealedTokens: String?
    /// The opened tokens, set only for a reader allowed to see them (`read:user_idp_tokens`); never stored.
    public var revealedTokens: UpstreamTokenSet?

    public init(
        connectionID: String, identity: FederatedIdentity, profileData: [String: JSONValue] = [:],
        sealedTokens: String? = nil
    ) {
        self.connectionID = connectionID
        self.identity = identity
        self.profileData = profileData
        self.sealedTokens = sealedTokens
    }

    /// The entry of `identities[]`, with `profileData` when there is one.
    public var jsonValue: JSONValue {
        var object = identity.jsonValue.objectValue ?? [:]
        if !profileData.isEmpty { object["profileData"] = .object(profileData) }
        object.merge(revealedTokens?.identityMembers ?? [:]) { $1 }
        return .object(object)
    }
}
