public import struct Foundation.Date

/// What an authorization code stands for (RFC 6749 §4.1.2), stored as the payload of the single-use
/// artefact of kind ``AuthorizationCodeGrant/artefactKind`` under the SHA-256 of the code; it lives 60 s
/// (SPEC §5). Written by `/authorize`, consumed by the `authorization_code` grant.
public struct AuthorizationCodeGrant: Codable, Sendable, Equatable {
    public static let artefactKind = "code"
    public static let lifetime: Double = 60

    public var clientID: String
    /// The `redirect_uri` as sent to `/authorize` (the token request must repeat it exactly).
    public var redirectURI: String
    /// RFC 7636 `code_challenge` (S256 only); `nil` when the confidential client sent none.
    public var codeChallenge: String?
    public var userID: String
    public var sessionID: String
    /// Granted scopes (after consent and RBAC filtering).
    public var scope: [String]
    /// The API the access token is for; `nil` gives a `{issuer}userinfo`-only token.
    public var audience: String?
    public var nonce: String?
    public var authTime: Date
    /// The refresh-token family this code's exchange creates, so a replay can revoke what it issued.
    public var familyID: String
    /// What the session had done when the code was issued (SPEC §12 `amr`); absent from codes of older releases.
    public var amr: [AuthenticationMethod]?
    /// The organization the login was for (SPEC §19), by id.
    public var organizationID: String?

    enum CodingKeys: String, CodingKey {
        case clientID = "client_id"
        case redirectURI = "redirect_uri"
        case codeChallenge = "code_challenge"
        case userID = "user_id"
        case sessionID = "session_id"
        case scope, audience, nonce
        case authTime = "auth_time"
        case familyID = "family_id"
        case amr
        case organizationID = "organization_id"
    }

    public init(
        clientID: String, redirectURI: String, codeChallenge: String?, userID: String, sessionID: String,
        scope: [String], audience: String?, nonce: String?, authTime: Date, familyID: String,
        amr: [AuthenticationMethod]? = nil, organizationID: String? = nil
    ) {
        self.clientID = clientID
        self.redirectURI = redirectURI
        self.codeChallenge = codeChallenge
        self.userID = userID
        self.sessionID = sessionID
        self.scope = scope
        self.audience = audience
        self.nonce = nonce
        self.authTime = authTime
        self.familyID = familyID
        self.amr = amr
        self.organizationID = organizationID
    }
}
