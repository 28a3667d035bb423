/// What the IP database knows about an address (SPEC §1 `--ip-database`, §8 device binding by ASN and the
/// `geoip.countryCode` of post-login rules).
public struct IPInfo: Sendable, Equatable {
    /// The autonomous system number; 0 when the range is not routed.
    public var asn: Int
    /// ISO 3166-1 alpha-2 country code, upper case (`None` in the TSV becomes `nil`).
    public var countryCode: String?

    public init(asn: Int, countryCode: String?) {
        self.asn = asn
        self.countryCode = countryCode
    }
}
