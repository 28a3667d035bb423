public import WardenWire

/// How a client authenticates at the token endpoint (RFC 7591 §2 `token_endpoint_auth_method`, SPEC §4): an
/// open set of `RawRepresentable` values, encoded as the plain string. What a client may be given is decided by
/// the Management API's validation, not by this type.
public struct TokenEndpointAuthMethod: OpenStringValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// A public client: no client authentication (RFC 7591 §2).
    public static let none: TokenEndpointAuthMethod = "none"
    /// The secret in the form body (RFC 6749 §2.3.1).
    public static let clientSecretPost: TokenEndpointAuthMethod = "client_secret_post"
    /// The secret in HTTP Basic (RFC 6749 §2.3.1).
    public static let clientSecretBasic: TokenEndpointAuthMethod = "client_secret_basic"
    /// A JWT signed with a registered key (OpenID Connect Core §9, RFC 7523); configured through
    /// `client_authentication_methods.private_key_jwt`, never stored as a client's method (SPEC §4).
    public static let privateKeyJWT: TokenEndpointAuthMethod = "private_key_jwt"

    /// Whether the client authenticates with a secret, and so has one.
    public var usesSecret: Bool { self == .clientSecretPost || self == .clientSecretBasic }
}
