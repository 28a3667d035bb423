public import Foundation
public import WardenWire

/// The validated claims of an ID token (OpenID Connect Core §2).
public struct IDTokenClaims: Sendable {
    /// `sub`: the user.
    public let subject: String
    /// `iss`.
    public let issuer: String
    /// `aud`, as a list.
    public let audience: [String]
    /// `exp`.
    public let expiresAt: Date
    /// `iat`.
    public let issuedAt: Date
    /// `nonce`, when the authorization request sent one.
    public let nonce: String?
    /// `auth_time`: when the user last logged in.
    public let authTime: Date?
    /// `azp`: the client the token was issued to.
    public let azp: String?
    /// Every claim, including profile claims (`email`, `name`, …) and `sid`.
    public let all: [String: JSONValue]
}
