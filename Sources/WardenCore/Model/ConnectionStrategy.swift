public import WardenWire

/// The strategy of a connection (SPEC §15 "Strategies"): which protocol and preset an upstream identity provider
/// speaks, and the `provider` of the identities it makes. An open set of `RawRepresentable` values, encoded as the
/// plain string, so a connection of a strategy this version does not know still decodes.
public struct ConnectionStrategy: OpenStringValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Warden's own database (`Username-Password-Authentication`).
    public static let auth0: ConnectionStrategy = "auth0"
    /// Any OpenID Connect provider (enterprise).
    public static let oidc: ConnectionStrategy = "oidc"
    /// Any OAuth 2.0 provider, with Warden's declarative profile (social).
    public static let oauth2: ConnectionStrategy = "oauth2"
    /// GitHub and GitHub Enterprise Server (social).
    public static let github: ConnectionStrategy = "github"
    /// Google, an OIDC connection to `https://accounts.google.com` underneath (social).
    public static let googleOAuth2: ConnectionStrategy = "google-oauth2"
    /// SAML 2.0 (enterprise, SPEC §16).
    public static let samlp: ConnectionStrategy = "samlp"

    /// The `strategy_type` of a login's log event (SPEC §15 "Logs and logout").
    public enum StrategyType: String, Sendable, Hashable, Codable {
        case database
        case social
        case enterprise
    }

    /// `database` for ``auth0``, `social` for ``github``, ``googleOAuth2`` and ``oauth2``, `enterprise` for every
    /// other strategy (``oidc``, ``samlp``).
    public var strategyType: StrategyType {
        switch self {
        case .auth0: .database
        case .github, .googleOAuth2, .oauth2: .social
        default: .enterprise
        }
    }

    /// Whether identities of this strategy are social (`isSocial` of `identities[]`, SPEC §15 "Users").
    public var isSocial: Bool { strategyType == .social }
}
