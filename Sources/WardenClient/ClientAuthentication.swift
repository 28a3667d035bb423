/// How the client authenticates at the token and backchannel endpoints (RFC 6749 §2.3.1, SPEC §4).
public enum ClientAuthentication: Sendable {
    /// A public client (native app, SPA): only `client_id` is sent; PKCE protects the code (RFC 7636).
    case none
    /// `client_id` and `client_secret` in the form body (`client_secret_post`).
    case clientSecretPost(String)
    /// HTTP Basic with the form-encoded id and secret (`client_secret_basic`, RFC 6749 §2.3.1).
    case clientSecretBasic(String)
}
