public import WardenWire

public import struct Foundation.Date

/// A refresh token as stored, by the SHA-256 of its value (SPEC §3). Tokens minted from one grant share a
/// `familyID`: rotation keeps the family, reuse of a rotated token revokes it whole.
public struct RefreshTokenRecord: Sendable, Equatable {
    public var tokenHash: String
    public var familyID: String
    public var clientID: String
    public var userID: String
    public var audience: String?
    public var scope: [String]
    public var authorizationDetails: JSONValue?
    public var sessionID: String?
    public var createdAt: Date
    public var expiresAt: Date?
    /// Set when a rotating client exchanged it for a new one.
    public var usedAt: Date?
    public var revokedAt: Date?
    /// The organization of the login it came from (SPEC §19): its tokens keep `org_id` and `org_name`.
    public var organizationID: String?

    public init(
        tokenHash: String, familyID: String, clientID: String, userID: String, audience: String?, scope: [String],
        authorizationDetails: JSONValue?, sessionID: String?, createdAt: Date, expiresAt: Date?,
        usedAt: Date? = nil, revokedAt: Date? = nil, organizationID: String? = nil
    ) {
        self.tokenHash = tokenHash
        self.familyID = familyID
        self.clientID = clientID
        self.userID = userID
        self.audience = audience
        self.scope = scope
        self.authorizationDetails = authorizationDetails
        self.sessionID = sessionID
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.usedAt = usedAt
        self.revokedAt = revokedAt
        self.organizationID = organizationID
    }
}

/// What redeeming a refresh token found (SPEC §3).
public enum RefreshTokenUse: Sendable, Equatable {
    /// Usable; for a rotating use it is now marked used (exactly one of N concurrent callers gets this).
    case valid(RefreshTokenRecord)
    /// A rotated token presented again: the caller must revoke the family (log `ferrt`).
    case reused(RefreshTokenRecord)
    case revoked
    case expired
    case notFound
}

extension RefreshTokenRecord {
    /// What using this token at `now` without rotating it gives: ``RefreshTokenUse/revoked``, else
    /// ``RefreshTokenUse/expired``, else ``RefreshTokenUse/valid(_:)`` (a live token is valid however often it is
    /// used).
    public func nonRotatingUse(at now: Date) -> RefreshTokenUse {
        if revokedAt != nil { return .revoked }
        if let expiresAt, expiresAt <= now { return .expired }
        return .valid(self)
    }
}
