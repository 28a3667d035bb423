public import Foundation
import WardenClient
public import WardenWire

/// An access token whose signature, `typ`, issuer, audience and lifetime were checked (RFC 9068 §4), with typed
/// access to the claims a resource server decides on (RFC 9068 §2.2, SPEC §3).
public struct VerifiedAccessToken: Sendable {
    /// `sub`: the user, or the client itself for `client_credentials`.
    public let subject: String?
    /// `client_id`: the client the token was issued to.
    public let clientID: String?
    /// `scope`, split at spaces (RFC 9068 §2.2.3).
    public let scope: Set<String>
    /// `aud`, as a list (a string or an array of strings on the wire).
    public let audience: [String]
    /// `iss`.
    public let issuer: String
    /// `exp`.
    public let expiresAt: Date
    /// `authorization_details` (RFC 9396 §9.1) as they are on the wire; empty when none were granted.
    public let authorizationDetails: [JSONValue]
    /// Every claim of the payload.
    public let claims: [String: JSONValue]

    init(_ verified: VerifiedClaims) {
        claims = verified.all
        subject = verified.all["sub"]?.stringValue
        clientID = verified.all["client_id"]?.stringValue
        scope = Set(verified.all["scope"]?.stringValue?.split(separator: " ").map(String.init) ?? [])
        audience = verified.audience
        issuer = verified.issuer
        expiresAt = verified.expiresAt
        authorizationDetails = verified.all["authorization_details"]?.arrayValue ?? []
    }

    /// The `authorization_details` entries whose `type` is `type`, decoded as `T` (RFC 9396 §2). Entries of
    /// other types, and entries of this type that do not decode as `T`, are left out.
    ///
    /// ```swift
    /// struct MoneyTransfer: Decodable { struct Amount: Decodable { let amount: String; let currency: String }
    ///                                   let instructedAmount: Amount }
    /// let transfers = token.authorizationDetails(ofType: "money_transfer", as: MoneyTransfer.self)
    /// ```
    public func authorizationDetails<T: Decodable>(ofType type: String, as _: T.Type = T.self) -> [T] {
        AuthorizationDetails.decode(authorizationDetails, ofType: type, as: T.self)
    }
}
