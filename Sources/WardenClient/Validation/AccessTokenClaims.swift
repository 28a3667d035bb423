public import Foundation
public import WardenWire

/// The validated claims of a JWT access token (RFC 9068 §2.2, SPEC §3), for a resource server.
public struct AccessTokenClaims: Sendable {
    /// `sub`: the user, or the client for `client_credentials`.
    public let subject: String?
    /// `client_id`.
    public let clientID: String?
    /// `scope`, split at spaces.
    public let scope: [String]
    /// `aud`, as a list.
    public let audience: [String]
    /// `exp`.
    public let expiresAt: Date
    /// `authorization_details` (RFC 9396 §9.1); empty when none were granted.
    public let authorizationDetails: [JSONValue]
    /// Every claim.
    public let all: [String: JSONValue]
}
