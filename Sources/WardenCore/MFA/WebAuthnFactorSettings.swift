public import WardenWire

/// The settings of a WebAuthn second factor (SPEC §17 "Second factor", `GET|PUT
/// /api/v2/guardian/factors/{webauthn-roaming|webauthn-platform}/settings`): what the security key ceremonies ask
/// of the authenticator, and the relying party ID they use.
public struct WebAuthnFactorSettings: Codable, Sendable, Hashable {
    /// `userVerification` of the ceremonies (WebAuthn Level 3 §5.8.6); `required` also makes the server require
    /// the UV flag.
    public var userVerification: UserVerification
    /// Whether ``relyingPartyIdentifier`` replaces the server's relying party ID for this factor.
    public var overrideRelyingParty: Bool
    /// The relying party ID of this factor while ``overrideRelyingParty`` is on: the issuer's host or a registrable
    /// suffix of it.
    public var relyingPartyIdentifier: String?

    /// The defaults of a factor never set: `preferred`, no override.
    public init(
        userVerification: UserVerification = .preferred, overrideRelyingParty: Bool = false,
        relyingPartyIdentifier: String? = nil
    ) {
        self.userVerification = userVerification
        self.overrideRelyingParty = overrideRelyingParty
        self.relyingPartyIdentifier = relyingPartyIdentifier
    }

    /// The relying party ID this factor's ceremonies use, given the server's.
    public func relyingPartyID(default server: String) -> String {
        overrideRelyingParty ? relyingPartyIdentifier ?? server : server
    }

    /// The settings as `GET …/settings` answers them (`relyingPartyIdentifier` absent when unset).
    public var json: JSONValue {
        var object: [String: JSONValue] = [
            "userVerification": .string(userVerification.rawValue), "overrideRelyingParty": .bool(overrideRelyingParty),
        ]
        if let relyingPartyIdentifier { object["relyingPartyIdentifier"] = .string(relyingPartyIdentifier) }
        return .object(object)
    }

    /// `UserVerificationRequirement` (WebAuthn Level 3 §5.8.6), an open set of wire values.
    public struct UserVerification: OpenStringValue {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        public static let preferred: UserVerification = "preferred"
        public static let required: UserVerification = "required"
        public static let discouraged: UserVerification = "discouraged"

        /// The values a tenant may set.
        public static let all: [UserVerification] = [.preferred, .required, .discouraged]
    }
}
