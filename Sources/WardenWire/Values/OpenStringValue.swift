/// A wire value from an open set (SPEC conventions): a string the wire carries as it is, with the well-known
/// values as static constants and any other value still representable, so decoding never loses what a peer sent
/// and validation, not the type, decides what is allowed. It encodes as the plain string (the standard library's
/// `Codable` for string raw values).
///
/// A conforming type needs only its `rawValue` and `init(rawValue:)`:
///
/// ```swift
/// public struct GrantType: OpenStringValue {
///     public let rawValue: String
///     public init(rawValue: String) { self.rawValue = rawValue }
///     public static let clientCredentials: GrantType = "client_credentials"
/// }
/// ```
public protocol OpenStringValue: RawRepresentable, Hashable, Sendable, Codable, ExpressibleByStringLiteral,
    CustomStringConvertible
where RawValue == String {
    init(rawValue: String)
}

extension OpenStringValue {
    public init(stringLiteral value: String) { self.init(rawValue: value) }
    public var description: String { rawValue }
}
