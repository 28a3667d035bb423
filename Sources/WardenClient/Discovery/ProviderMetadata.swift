public import Foundation

/// The provider's configuration from `{issuer}.well-known/openid-configuration` (OpenID Connect Discovery 1.0
/// §3, RFC 8414 §2, SPEC §2): where each endpoint is and what the server supports.
public struct ProviderMetadata: Sendable, Codable {
    /// The issuer identifier; ID tokens carry it as `iss`.
    public var issuer: URL
    /// `/authorize` (RFC 6749 §3.1).
    public var authorizationEndpoint: URL
    /// `/oauth/token` (RFC 6749 §3.2).
    public var tokenEndpoint: URL
    /// `/userinfo` (OpenID Connect Core §5.3).
    public var userinfoEndpoint: URL?
    /// The JWKS document with the token signing keys (RFC 7517 §5).
    public var jwksURI: URL
    /// `/bc-authorize` (CIBA Core §7).
    public var backchannelAuthenticationEndpoint: URL?
    /// `/oauth/revoke` (RFC 7009).
    public var revocationEndpoint: URL?
    /// `/oidc/logout` (OpenID Connect RP-Initiated Logout 1.0).
    public var endSessionEndpoint: URL?
    /// The JWS algorithms ID tokens may be signed with.
    public var idTokenSigningAlgValuesSupported: [String]?
    /// The PKCE methods (`["S256"]` at Warden).
    public var codeChallengeMethodsSupported: [String]?
    /// The grant types the server supports.
    public var grantTypesSupported: [String]?
    /// The scopes the server supports.
    public var scopesSupported: [String]?
    /// The RAR types registered on the server's APIs (RFC 9396 §10).
    public var authorizationDetailsTypesSupported: [String]?

    /// Creates metadata by hand, e.g. for a configuration known at build time.
    public init(
        issuer: URL, authorizationEndpoint: URL, tokenEndpoint: URL, userinfoEndpoint: URL? = nil, jwksURI: URL,
        backchannelAuthenticationEndpoint: URL? = nil, revocationEndpoint: URL? = nil, endSessionEndpoint: URL? = nil
    ) {
        self.issuer = issuer
        self.authorizationEndpoint = authorizationEndpoint
        self.tokenEndpoint = tokenEndpoint
        self.userinfoEndpoint = userinfoEndpoint
        self.jwksURI = jwksURI
        self.backchannelAuthenticationEndpoint = backchannelAuthenticationEndpoint
        self.revocationEndpoint = revocationEndpoint
        self.endSessionEndpoint = endSessionEndpoint
    }

    enum CodingKeys: String, CodingKey {
        case issuer
        case authorizationEndpoint = "authorization_endpoint"
        case tokenEndpoint = "token_endpoint"
        case userinfoEndpoint = "userinfo_endpoint"
        case jwksURI = "jwks_uri"
        case backchannelAuthenticationEndpoint = "backchannel_authentication_endpoint"
        case revocationEndpoint = "revocation_endpoint"
        case endSessionEndpoint = "end_session_endpoint"
        case idTokenSigningAlgValuesSupported = "id_token_signing_alg_values_supported"
        case codeChallengeMethodsSupported = "code_challenge_methods_supported"
        case grantTypesSupported = "grant_types_supported"
        case scopesSupported = "scopes_supported"
        case authorizationDetailsTypesSupported = "authorization_details_types_supported"
    }
}
