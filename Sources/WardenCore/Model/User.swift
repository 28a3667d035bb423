public import WardenWire

public import struct Foundation.Date

/// A user (SPEC §9 `/users`, §15 "Users").
public struct User: Sendable, Equatable {
    public var userID: String
    public var email: String?
    public var emailVerified: Bool
    public var name: String?
    /// OIDC Core §5.1 `given_name`: from sign-up, the Management API, an import or an upstream.
    public var givenName: String?
    /// OIDC Core §5.1 `family_name`.
    public var familyName: String?
    public var nickname: String?
    public var picture: String?
    public var userMetadata: [String: JSONValue]
    public var appMetadata: [String: JSONValue]
    public var blocked: Bool
    public var createdAt: Date
    public var updatedAt: Date
    public var lastLogin: Date?
    public var loginsCount: Int

    public init(userID: String, email: String?, createdAt: Date) {
        self.userID = userID
        self.email = email
        self.emailVerified = false
        self.userMetadata = [:]
        self.appMetadata = [:]
        self.blocked = false
        self.createdAt = createdAt
        self.updatedAt = createdAt
        self.loginsCount = 0
    }
}
