public import WardenWire

/// `session_transfer.enforce_device_binding` (SPEC §8): what the consumer of a session transfer token must
/// share with its creator. An open set of `RawRepresentable` values, encoded as the plain string; the
/// Management API's validation accepts the three below.
public struct DeviceBinding: OpenStringValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The same client IP; the default.
    public static let ip: DeviceBinding = "ip"
    /// The same autonomous system (from `--ip-database`).
    public static let asn: DeviceBinding = "asn"
    /// No binding.
    public static let none: DeviceBinding = "none"
}
