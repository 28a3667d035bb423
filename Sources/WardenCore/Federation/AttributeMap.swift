public import WardenWire

/// The `attribute_map` option of an `oidc` connection (SPEC §15): which ID-token and userinfo claims become the
/// identity's `profileData`, and through it the user's root attributes.
public struct AttributeMap: Sendable, Hashable {
    /// `mapping_mode`.
    public enum MappingMode: String, Sendable, Hashable, CaseIterable {
        /// Every claim but the protocol ones, then ``AttributeMap/attributes`` over them (the default).
        case bindAll = "bind_all"
        /// Only ``AttributeMap/attributes``.
        case useMap = "use_map"
    }

    /// The claims about the token rather than the person, never kept by `bind_all` (SPEC §15 "Users").
    public static let protocolClaims: Set<String> = [
        "iss", "aud", "exp", "iat", "nbf", "nonce", "at_hash", "c_hash", "azp", "auth_time", "sid", "jti",
    ]

    public var mappingMode: MappingMode
    /// Target attribute → template or literal.
    public var attributes: [String: AttributeTemplate]
    /// `userinfo_scope`, the scope asked for when the userinfo endpoint is read, as the reference platform keeps it.
    public var userinfoScope: String?

    /// `bind_all` without attributes: what a connection without `attribute_map` does.
    public init() {
        mappingMode = .bindAll
        attributes = [:]
    }

    /// Parses the option's value (`nil` when absent): an object of `mapping_mode`, `attributes` and
    /// `userinfo_scope`. Errors name the member, e.g. `attribute_map.attributes.email`.
    public init(option value: JSONValue?) throws(ConnectionOptionError) {
        self.init()
        guard let value else { return }
        guard let members = value.objectValue else { throw Self.error("", "Expected type object") }
        if let unknown = members.keys.sorted().first(where: {
            !["mapping_mode", "attributes", "userinfo_scope"].contains($0)
        }) {
            throw Self.error(".\(unknown)", "Unknown property")
        }
        if let mode = members["mapping_mode"] {
            guard let parsed = mode.stringValue.flatMap(MappingMode.init(rawValue:)) else {
                throw Self.error(".mapping_mode", "Expected one of: bind_all, use_map")
            }
            mappingMode = parsed
        }
        if let scope = members["userinfo_scope"] {
            guard let text = scope.stringValue else { throw Self.error(".userinfo_scope", "Expected type string") }
            userinfoScope = text
        }
        if let attributes = members["attributes"] {
            guard let targets = attributes.objectValue else { throw Self.error(".attributes", "Expected type object") }
            for (target, template) in targets {
                guard !target.isEmpty else { throw Self.error(".attributes", "An attribute name is empty") }
                do {
                    self.attributes[target] = try AttributeTemplate(option: template)
                } catch {
                    throw Self.error(".attributes.\(target)", error.problem)
                }
            }
        }
    }

    private static func error(_ path: String, _ problem: String) -> ConnectionOptionError {
        ConnectionOptionError(option: "attribute_map" + path, problem: problem)
    }

    /// The option as answered back.
    public var jsonValue: JSONValue {
        var members: [String: JSONValue] = [
            "mapping_mode": .string(mappingMode.rawValue), "attributes": .object(attributes.mapValues(\.jsonValue)),
        ]
        if let userinfoScope { members["userinfo_scope"] = .string(userinfoScope) }
        return .object(members)
    }

    /// The profile of a login whose ID token has `idTokenClaims` and whose userinfo response (when the connection
    /// reads one) is `userinfo`. A userinfo response whose `sub` is not the ID token's is not used (OIDC Core
    /// §5.3.2); for `bind_all` its members win over the ID token's.
    public func profile(idTokenClaims: [String: JSONValue], userinfo: [String: JSONValue]?) -> FederatedProfile {
        let userinfo = userinfo.flatMap { $0["sub"] == idTokenClaims["sub"] ? $0 : nil } ?? [:]
        var profile: [String: JSONValue] = [:]
        if mappingMode == .bindAll {
            profile = idTokenClaims.merging(userinfo) { _, fromUserinfo in fromUserinfo }
                .filter { !Self.protocolClaims.contains($0.key) }
        }
        var unresolved: [String] = []
        for (target, template) in attributes {
            if let value = template.evaluate(tokenset: idTokenClaims, userinfo: userinfo) {
                profile[target] = value
            } else {
                unresolved.append(target)
            }
        }
        return FederatedProfile(profileData: profile, unresolvedAttributes: unresolved.sorted())
    }
}
