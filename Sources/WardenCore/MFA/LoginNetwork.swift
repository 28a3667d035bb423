/// The network a login came from, as the `confidence-score` policy compares them (SPEC §12): the autonomous
/// system when the IP database knows the address, else the IPv4 /24 or IPv6 /48 around it. Its ``rawValue``
/// (`asn:64500`, `ipv4:192.0.2.0/24`, `ipv6:2001:db8:1::/48`-like hex) is what storage keeps.
public struct LoginNetwork: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The network of `ip` (text), with `info` from the IP database when it has the address; `nil` when the
    /// address does not parse. An ASN of 0 (a range not routed) names no network, so the prefix is used.
    public init?(ip: String, info: IPInfo?) {
        if let asn = info?.asn, asn != 0 {
            self.init(rawValue: "asn:\(asn)")
            return
        }
        switch IPAddress(ip)?.unmappingIPv4 {
        case .v4(let value):
            self.init(rawValue: "ipv4:\(String(value & 0xFFFF_FF00, radix: 16))/24")
        case .v6(let value):
            self.init(rawValue: "ipv6:\(String(value >> 80, radix: 16))/48")
        case nil:
            return nil
        }
    }
}
