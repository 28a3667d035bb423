import WardenWire

/// Where a CIBA request came from geographically, when the server knows (SPEC §7.2 `l`:
/// `{"n", "lat", "long"}`).
public struct AuthenticationLocation: Sendable, Hashable, Codable {
    /// A place name (`n`), e.g. `"Amsterdam, NL"`.
    public var name: String?
    /// Latitude in degrees (`lat`; sent as a number or a numeric string).
    public var latitude: Double?
    /// Longitude in degrees (`long`; sent as a number or a numeric string).
    public var longitude: Double?

    /// Creates a location.
    public init(name: String?, latitude: Double?, longitude: Double?) {
        self.name = name
        self.latitude = latitude
        self.longitude = longitude
    }

    enum CodingKeys: String, CodingKey {
        case name = "n"
        case latitude = "lat"
        case longitude = "long"
    }

    init?(json: JSONValue?) {
        guard let object = json?.objectValue else { return nil }
        func degrees(_ value: JSONValue?) -> Double? {
            value?.doubleValue ?? value?.stringValue.flatMap(Double.init)
        }
        self.init(name: object["n"]?.stringValue, latitude: degrees(object["lat"]), longitude: degrees(object["long"]))
    }
}
