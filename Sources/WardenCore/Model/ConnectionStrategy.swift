public import WardenWire

/// Where a connection's identities live (SPEC §15 "Strategies"): an open value set, encoded as the plain string.
public struct ConnectionStrategy: OpenStringValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Warden's own password database (`Username-Password-Authentication`, SPEC §15.1).
    public static let auth0: ConnectionStrategy = "auth0"
    /// An OpenID Connect provider (an enterprise connection).
    public static let oidc: ConnectionStrategy = "oidc"
    /// Any OAuth 2.0 provider, its profile read declaratively.
    public static let oauth2: ConnectionStrategy = "oauth2"
    /// GitHub or GitHub Enterprise Server.
    public static let github: ConnectionStrategy = "github"
    /// Google, an OIDC provider underneath.
    public static let googleOAuth2: ConnectionStrategy = "google-oauth2"
    /// A SAML 2.0 identity provider (SPEC §16).
    public static let samlp: ConnectionStrategy = "samlp"

    /// The strategies a connection may be created with.
    public static let known: [ConnectionStrategy] = [.auth0, .oidc, .oauth2, .github, .googleOAuth2, .samlp]

    /// Social connections sign in people with their own accounts; enterprise ones with an organization's.
    public var isSocial: Bool { [.oauth2, .github, .googleOAuth2].contains(self) }

    /// `strategy_type` of the log events (SPEC §15 "Logs"): `database`, `social` or `enterprise`.
    public var strategyType: String {
        self == .auth0 ? "database" : isSocial ? "social" : "enterprise"
    }
}
