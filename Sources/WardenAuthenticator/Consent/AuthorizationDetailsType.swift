/// A typed `authorization_details` entry (RFC 9396 §2) that an app knows how to show.
///
/// Conform a `Codable` type whose coding keys match the members registered for the type on the resource server,
/// and name the `type` value. ``ConsentRequestedDetails/filterAuthorizationDetailsByType(_:)`` then returns the
/// entries of that type from a consent (SPEC §7.3):
///
/// ```swift
/// struct MoneyTransfer: AuthorizationDetailsType {
///     static let type = "money_transfer"
///     struct Amount: Codable { let amount: Double; let currency: String }
///     let instructedAmount: Amount
///     let beneficiary: String
/// }
///
/// let transfers = consent.requestedDetails.filterAuthorizationDetailsByType(MoneyTransfer.self)
/// ```
///
/// An app should still show every entry of the request, whatever its type, so the user sees everything they
/// grant; entries of unknown types remain available as ``JSONValue`` in
/// ``ConsentRequestedDetails/authorizationDetails``.
public protocol AuthorizationDetailsType: Codable {
    /// The `type` member value this Swift type decodes (RFC 9396 §2 `type`).
    static var type: String { get }
}

extension AuthorizationDetailsType {
    /// The `type` member of this entry: always ``AuthorizationDetailsType/type``.
    public var type: String { Self.type }
}
