public import struct Foundation.Date

/// A stored refresh token with what issuing tokens from it reads besides (SPEC §3), fetched in one statement
/// by ``RefreshTokenStore/refreshTokenContext(hash:)``.
public struct RefreshTokenContext: Sendable, Equatable {
    public var token: RefreshTokenRecord
    /// The token's user; `nil` when the user was deleted.
    public var user: UserRecord?
    /// The `auth_time` of the SSO session the token was issued in (OIDC Core §2); `nil` when it was issued
    /// without one or the session is gone.
    public var sessionAuthTime: Date?
    /// The methods that session did (`amr`, SPEC §12); empty when there is no session.
    public var sessionAMR: [AuthenticationMethod]

    public init(
        token: RefreshTokenRecord, user: UserRecord?, sessionAuthTime: Date?, sessionAMR: [AuthenticationMethod] = []
    ) {
        self.token = token
        self.user = user
        self.sessionAuthTime = sessionAuthTime
        self.sessionAMR = sessionAMR
    }
}
