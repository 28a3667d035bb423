public import WardenWire

/// The kind of application a client is (SPEC §4 `app_type`): an open set of `RawRepresentable` values, encoded
/// as the plain string; the Management API's validation decides which are accepted.
public struct AppType: OpenStringValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// A mobile or desktop application (a public client, RFC 8252).
    public static let native: AppType = "native"
    /// A single-page application in a browser.
    public static let spa: AppType = "spa"
    /// A server-side web application (a confidential client).
    public static let regularWeb: AppType = "regular_web"
    /// A machine-to-machine client (`client_credentials`, CIBA).
    public static let nonInteractive: AppType = "non_interactive"
}
