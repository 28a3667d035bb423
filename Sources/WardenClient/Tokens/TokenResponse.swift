public import WardenWire

/// A successful token endpoint answer (RFC 6749 §5.1, OpenID Connect Core §3.1.3.3, SPEC §5–§6), with the
/// `authorization_details` granted (RFC 9396 §7).
public struct TokenResponse: Sendable, Decodable {
    /// The access token (a JWT at Warden, RFC 9068).
    public var accessToken: String
    /// `Bearer`.
    public var tokenType: String
    /// Seconds until the access token expires.
    public var expiresIn: Int?
    /// A refresh token, when `offline_access` was granted (SPEC §3).
    public var refreshToken: String?
    /// The ID token, when `openid` was granted.
    public var idToken: String?
    /// The granted scopes, space-separated.
    public var scope: String?
    /// The granted authorization details.
    public var authorizationDetails: [JSONValue]?

    /// Creates a response.
    public init(
        accessToken: String, tokenType: String = "Bearer", expiresIn: Int? = nil, refreshToken: String? = nil,
        idToken: String? = nil, scope: String? = nil, authorizationDetails: [JSONValue]? = nil
    ) {
        self.accessToken = accessToken
        self.tokenType = tokenType
        self.expiresIn = expiresIn
        self.refreshToken = refreshToken
        self.idToken = idToken
        self.scope = scope
        self.authorizationDetails = authorizationDetails
    }

    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case tokenType = "token_type"
        case expiresIn = "expires_in"
        case refreshToken = "refresh_token"
        case idToken = "id_token"
        case scope
        case authorizationDetails = "authorization_details"
    }
}
