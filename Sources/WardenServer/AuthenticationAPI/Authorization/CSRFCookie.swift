import Hummingbird
import WardenCore
import WardenWire

/// The CSRF defence of the hosted forms (SPEC §5): each transaction has a random token that the form
/// carries in its hidden `csrf` field and the browser in a `SameSite=Strict` cookie set with the form. A post
/// is accepted only when both equal the transaction's token, so another site can neither post for the
/// person nor log them in to an account of its own.
enum CSRFCookie {
    static let name = "warden_csrf"

    /// The cookie for `token`, scoped to the hosted pages under `path` for the transaction's lifetime.
    static func make(token: String, path: String, secure: Bool) -> Cookie {
        Cookie(
            name: name, value: token, maxAge: Int(LoginTransaction.lifetime), path: path, secure: secure,
            httpOnly: true, sameSite: .strict)
    }

    /// Whether the posted field and the request's cookie both carry `expected`.
    static func isValid(field: String?, request: Request, expected: String) -> Bool {
        guard let field, let cookie = request.cookies[name]?.value else { return false }
        return SecretHash.constantTimeEquals(field, expected) && SecretHash.constantTimeEquals(cookie, expected)
    }

    /// Whether the posted field equals the request's cookie (double submit), for a form outside any login
    /// transaction (the password reset pages, SPEC §15.1): the page that shows the form sets both to a new token.
    static func isValid(field: String?, request: Request) -> Bool {
        guard let cookie = request.cookies[name]?.value, !cookie.isEmpty else { return false }
        return isValid(field: field, request: request, expected: cookie)
    }
}
