public import WardenWire

public import struct Foundation.Date

/// A user of the one database connection (SPEC §9 `/users`).
public struct User: Sendable, Equatable {
    public var userID: String
    public var email: String?
    public var emailVerified: Bool
    public var name: String?
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
