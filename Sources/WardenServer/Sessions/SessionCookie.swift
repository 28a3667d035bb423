import Hummingbird

/// The SSO session cookie (SPEC §5): a random secret, stored server-side only as its SHA-256, sent
/// `HttpOnly`, `SameSite=Lax`, `Path=/`, and `Secure` unless the issuer is plain HTTP.
enum SessionCookie {
    static let name = "warden_session"

    /// The cookie carrying `secret` for `maxAge` seconds.
    static func make(secret: String, maxAge: Int, secure: Bool) -> Cookie {
        Cookie(
            name: name, value: secret, maxAge: maxAge, path: "/", secure: secure, httpOnly: true, sameSite: .lax)
    }

    /// The cookie that removes it from the browser (RFC 6265 §3.1).
    static func expired(secure: Bool) -> Cookie {
        make(secret: "", maxAge: 0, secure: secure)
    }

    /// The secret the request carries, if any.
    static func secret(in request: Request) -> String? {
        guard let value = request.cookies[name]?.value, !value.isEmpty else { return nil }
        return value
    }
}
