public import WardenWire

/// Any JSON value, decoded without a schema: the wire type shared with the server (`WardenWire.JSONValue`).
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
///
/// The alias lets an app name the type with `import WardenAuthenticator` alone; its members (the accessors, the
/// cases, the literals) are declared in `WardenWire`, so a file compiled with `MemberImportVisibility` that uses
/// them also writes `import WardenWire`.
public typealias JSONValue = WardenWire.JSONValue
