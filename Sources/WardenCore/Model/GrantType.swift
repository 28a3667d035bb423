public import WardenWire

/// A grant type accepted at the token endpoint (RFC 7591 §2 `grant_types`): a growing registry of
/// `RawRepresentable` values, encoded as the plain string.
public struct GrantType: OpenStringValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// RFC 6749 §4.4.
    public static let clientCredentials: GrantType = "client_credentials"
    /// RFC 6749 §4.1.
    public static let authorizationCode: GrantType = "authorization_code"
    /// RFC 6749 §6.
    public static let refreshToken: GrantType = "refresh_token"
    /// CIBA Core 1.0 §10.1.
    public static let ciba: GrantType = "urn:openid:params:grant-type:ciba"
    /// RFC 8693 §2.1.
    public static let tokenExchange: GrantType = "urn:ietf:params:oauth:grant-type:token-exchange"
    /// The native passkey API's exchange (SPEC §17), in the vendor's name.
    public static let webAuthn: GrantType = "urn:okta:params:oauth:grant-type:webauthn"
}
