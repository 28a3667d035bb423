public import WardenCore

/// Any JSON value, decoded without a schema: the wire type shared with the server (WardenCore).
///
/// The consent API (SPEC §7.3) returns `authorization_details` (RFC 9396) whose members are defined by each
/// resource server, so the SDK keeps them as `JSONValue` and offers typed access through
/// ``ConsentRequestedDetails/filterAuthorizationDetailsByType(_:)`` and dynamic access through `stringValue`,
/// `doubleValue`, `intValue`, `boolValue`, `objectValue`, `arrayValue` and the key and index subscripts.
///
/// ```swift
/// let detail = consent.requestedDetails.authorizationDetails[0]
/// let type = detail["type"]?.stringValue
/// let amount = detail["instructedAmount"]?["amount"]?.doubleValue
/// ```
public typealias JSONValue = WardenCore.JSONValue
