/// A session transfer token (SPEC §8): opens the web app logged in as the native app's user, once, within
/// ``expiresIn`` seconds — as the `session_transfer_token` query parameter of the web client's `/authorize`, or
/// as the `auth0_session_transfer_token` cookie, whichever the web client allows.
public struct SessionTransferToken: Sendable {
    /// The token (the exchange's `access_token`).
    public let token: String
    /// Seconds it stays valid (60 at Warden).
    public let expiresIn: Int
    /// The ID token issued with it.
    public let idToken: String?
    /// The native client's next refresh token, when it rotates refresh tokens (SPEC §3).
    public let refreshToken: String?

    /// Creates a token.
    public init(token: String, expiresIn: Int, idToken: String? = nil, refreshToken: String? = nil) {
        self.token = token
        self.expiresIn = expiresIn
        self.idToken = idToken
        self.refreshToken = refreshToken
    }

    /// The cookie name the web client's `/authorize` reads (SPEC §8).
    public static let cookieName = "auth0_session_transfer_token"
    /// The query parameter name the web client's `/authorize` reads (SPEC §8).
    public static let queryParameter = "session_transfer_token"
}
