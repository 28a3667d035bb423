public import struct Foundation.Date

/// An SSO session of the hosted login (SPEC §5): a server-side record behind an `HttpOnly` cookie.
///
/// The cookie carries a random secret stored only as its hash; `id` is the public session id (`sid` in
/// ID tokens, OIDC Front/Back-Channel Logout §2).
public struct Session: Sendable, Equatable, Codable {
    public var id: String
    public var userID: String
    public var createdAt: Date
    /// When the user last authenticated (ID token `auth_time`, `max_age`).
    public var authTime: Date
    public var lastActiveAt: Date
    /// The absolute end of the session.
    public var expiresAt: Date
    /// The end of the session if it stays idle.
    public var idleExpiresAt: Date
    /// How the session began: `password`, or later `session_transfer` (SPEC §8).
    public var method: String
    /// The refresh-token family a session transfer created it from (SPEC §8 cascade revocation).
    public var sourceFamilyID: String?
    /// The authentication methods done in this session (RFC 8176 `amr`, SPEC §12): `pwd`, and `mfa` once a second
    /// factor was done, which later logins through the session then need not ask again.
    public var amr: [AuthenticationMethod]

    public init(
        id: String, userID: String, createdAt: Date, authTime: Date, lastActiveAt: Date, expiresAt: Date,
        idleExpiresAt: Date, method: String, sourceFamilyID: String? = nil, amr: [AuthenticationMethod] = []
    ) {
        self.id = id
        self.userID = userID
        self.createdAt = createdAt
        self.authTime = authTime
        self.lastActiveAt = lastActiveAt
        self.expiresAt = expiresAt
        self.idleExpiresAt = idleExpiresAt
        self.method = method
        self.sourceFamilyID = sourceFamilyID
        self.amr = amr
    }

    /// Whether the session is still usable at `now`.
    public func isActive(at now: Date) -> Bool {
        now < expiresAt && now < idleExpiresAt
    }
}
