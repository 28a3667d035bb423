import Foundation
import WardenClient

/// What opens the web app logged in with a session transfer token (SPEC §8): its `/authorize` URL carrying the
/// token as `session_transfer_token`, or the same URL without it plus the `auth0_session_transfer_token` cookie
/// a WebView injects first. The token is single-use: only one of the two works.
struct WebAppOpening: Sendable {
    /// The web client's `/authorize` request (state, nonce, PKCE), without the token.
    let authorization: AuthorizationRequest
    let token: SessionTransferToken
    let issuer: URL

    static let cookieName = "auth0_session_transfer_token"
    static let queryParameter = "session_transfer_token"

    /// The same URL with the token as a query parameter.
    var urlWithToken: URL {
        let parameter = formEncoded([(Self.queryParameter, token.token)])
        return URL(string: authorization.url.absoluteString + "&" + parameter) ?? authorization.url
    }

    /// The cookie as a WebView's cookie store takes it (the reference SDK's example: domain of the issuer, path
    /// `/`, its lifetime, `Secure` on HTTPS) in `Set-Cookie` syntax.
    var cookie: String {
        var attributes = [
            "\(Self.cookieName)=\(token.token)", "Domain=\(issuer.host ?? "")", "Path=/", "Max-Age=\(token.expiresIn)",
        ]
        attributes +=
            issuer.scheme == "https" ? ["Secure", "HttpOnly", "SameSite=None"] : ["HttpOnly", "SameSite=Lax"]
        return attributes.joined(separator: "; ")
    }
}
