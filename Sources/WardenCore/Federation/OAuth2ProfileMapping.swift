public import WardenWire

/// Warden's declarative profile of an `oauth2` connection (SPEC §15), in place of the reference platform's
/// `scripts.fetchUserProfile`: the upstream id and the profile read from the `userinfo_url` response.
public struct OAuth2ProfileMapping: Sendable, Hashable {
    /// The default fields of the upstream id, tried in order.
    public static let defaultUserIDFields = ["sub", "id"]

    /// `user_id_field`: a dotted path to the upstream id; `nil` tries ``defaultUserIDFields``.
    public var userIDField: String?
    /// `fieldsMap`: profile attribute → dotted path into the response (`{"name": "profile.display_name"}`).
    public var fieldsMap: [String: String]

    /// Parses `user_id_field` and `fieldsMap` of a connection's `options`; errors name the option.
    public init(options: [String: JSONValue]) throws(ConnectionOptionError) {
        userIDField = nil
        fieldsMap = [:]
        if let field = options["user_id_field"] {
            guard let text = field.stringValue, ClaimPath(text) != nil else {
                throw ConnectionOptionError(option: "user_id_field", problem: "Expected a dotted path such as data.id")
            }
            userIDField = text
        }
        if let map = options["fieldsMap"] {
            guard let members = map.objectValue else {
                throw ConnectionOptionError(option: "fieldsMap", problem: "Expected type object")
            }
            for (target, path) in members {
                guard !target.isEmpty, let text = path.stringValue, ClaimPath(text) != nil else {
                    throw ConnectionOptionError(
                        option: "fieldsMap.\(target)", problem: "Expected a dotted path such as profile.display_name")
                }
                fieldsMap[target] = text
            }
        }
    }

    /// The upstream id and profile in the userinfo response `userinfo`: the profile is the response with each
    /// ``fieldsMap`` attribute set from its path (an absent path leaves the attribute as the response has it).
    /// `nil` when no id field holds a non-empty string or a whole number.
    public func profile(userinfo: [String: JSONValue]) -> UpstreamUserProfile? {
        let fields = userIDField.map { [$0] } ?? Self.defaultUserIDFields
        let candidates = fields.lazy.compactMap { ClaimPath($0)?.value(in: userinfo).flatMap(UpstreamUserID.init) }
        guard let userID = candidates.first else { return nil }
        var profile = userinfo
        for (target, path) in fieldsMap {
            if let value = ClaimPath(path)?.value(in: userinfo) { profile[target] = value }
        }
        return UpstreamUserProfile(userID: userID, profile: FederatedProfile(profileData: profile))
    }
}

/// Who signed in at the upstream and what it says of them.
public struct UpstreamUserProfile: Sendable, Hashable {
    public var userID: UpstreamUserID
    public var profile: FederatedProfile
    /// The upstream's token response, for keeping (SPEC §15 "Upstream tokens") and federated logout.
    public var tokens: UpstreamTokenSet?

    public init(userID: UpstreamUserID, profile: FederatedProfile, tokens: UpstreamTokenSet? = nil) {
        self.userID = userID
        self.profile = profile
        self.tokens = tokens
    }
}
