public import WardenWire

/// What a federated login brings of the person (SPEC §15 "Users"): the identity's `profileData` and the user's
/// root attributes taken from it.
public struct FederatedProfile: Sendable, Hashable {
    /// The identity's `profileData`.
    public var profileData: [String: JSONValue]
    /// The root attributes the upstream gave, read from ``profileData``.
    public var rootAttributes: FederatedRootAttributes
    /// The `attribute_map` attributes left unset because a placeholder named an absent claim, sorted (for the log's
    /// warning); empty for `oauth2` and `bind_all` without attributes.
    public var unresolvedAttributes: [String]

    public init(profileData: [String: JSONValue], unresolvedAttributes: [String] = []) {
        self.profileData = profileData
        self.rootAttributes = FederatedRootAttributes(profile: profileData)
        self.unresolvedAttributes = unresolvedAttributes
    }
}

/// The attributes of a user's root that come from the upstream (SPEC §15 "Users"), as `set_user_root_attributes`
/// says.
public struct FederatedRootAttributes: Sendable, Hashable {
    public var email: String?
    /// True only when the upstream says so: the JSON `true` or the string `"true"` that some providers send.
    public var emailVerified: Bool
    public var name: String?
    public var givenName: String?
    public var familyName: String?
    public var nickname: String?
    public var picture: String?

    /// Reads the string members `email`, `name`, `given_name`, `family_name`, `nickname`, `picture` and the
    /// member `email_verified` of `profile`; any other type counts as absent.
    public init(profile: [String: JSONValue]) {
        email = profile["email"]?.stringValue
        emailVerified = profile["email_verified"] == .bool(true) || profile["email_verified"] == .string("true")
        name = profile["name"]?.stringValue
        givenName = profile["given_name"]?.stringValue
        familyName = profile["family_name"]?.stringValue
        nickname = profile["nickname"]?.stringValue
        picture = profile["picture"]?.stringValue
    }
}

/// When a login writes what the upstream says over the stored user: the `set_user_root_attributes` option of a
/// connection (SPEC §15).
public enum UserRootAttributesUpdate: String, Sendable, Hashable, CaseIterable {
    /// Every login writes the root attributes (the default).
    case onEachLogin = "on_each_login"
    /// Only the login that creates the user writes them.
    case onFirstLogin = "on_first_login"
    /// Only the login that creates the user writes them, and the identity's `profileData` is stored that once.
    case neverOnLogin = "never_on_login"

    /// The option's value; `nil` (absent) means ``onEachLogin``.
    public init(option value: JSONValue?) throws(ConnectionOptionError) {
        guard let value else {
            self = .onEachLogin
            return
        }
        guard let text = value.stringValue, let update = UserRootAttributesUpdate(rawValue: text) else {
            let allowed = Self.allCases.map(\.rawValue).joined(separator: ", ")
            throw ConnectionOptionError(option: "set_user_root_attributes", problem: "Expected one of: \(allowed)")
        }
        self = update
    }

    /// What a login through the connection writes of `profile`; `nil` members keep what is stored.
    public func changes(from profile: FederatedProfile, firstLogin: Bool) -> FederatedProfileChanges {
        FederatedProfileChanges(
            rootAttributes: firstLogin || self == .onEachLogin ? profile.rootAttributes : nil,
            profileData: firstLogin || self != .neverOnLogin ? profile.profileData : nil)
    }
}

/// What one federated login writes over the stored user and identity (``UserRootAttributesUpdate``).
public struct FederatedProfileChanges: Sendable, Hashable {
    /// The root attributes to write, all of them (an absent one clears the stored value); `nil` to keep them.
    public var rootAttributes: FederatedRootAttributes?
    /// The identity's new `profileData`; `nil` to keep it.
    public var profileData: [String: JSONValue]?
}
