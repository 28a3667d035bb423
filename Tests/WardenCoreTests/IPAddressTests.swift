import Testing
import WardenCore
import WardenWire

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

/// IPv4 dotted decimal and the IPv6 text forms of RFC 4291 §2.2, checked against the C library's `inet_pton`.
@Suite("IP address parsing")
struct IPAddressTests {
    static let valid: [(String, IPAddress)] = [
        ("0.0.0.0", .v4(0)),
        ("255.255.255.255", .v4(.max)),
        ("192.0.2.1", .v4(0xC000_0201)),
        ("10.0.0.10", .v4(0x0A00_000A)),
        ("::", .v6(0)),
        ("::1", .v6(1)),
        ("1::", .v6(1 << 112)),
        ("2001:db8::1", .v6(0x2001_0DB8_0000_0000_0000_0000_0000_0001)),
        ("2001:DB8:0:0:0:0:0:1", .v6(0x2001_0DB8_0000_0000_0000_0000_0000_0001)),
        ("2001:0db8:0000:0000:0000:0000:0000:0001", .v6(0x2001_0DB8_0000_0000_0000_0000_0000_0001)),
        ("1:2:3:4:5:6:7:8", .v6(0x0001_0002_0003_0004_0005_0006_0007_0008)),
        ("1:2:3:4:5:6:7::", .v6(0x0001_0002_0003_0004_0005_0006_0007_0000)),
        ("::2:3:4:5:6:7:8", .v6(0x0000_0002_0003_0004_0005_0006_0007_0008)),
        ("1:2::7:8", .v6(0x0001_0002_0000_0000_0000_0000_0007_0008)),
        ("ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", .v6(.max)),
        ("::ffff:192.0.2.1", .v6(0xFFFF_C000_0201)),
        ("64:ff9b::192.0.2.33", .v6(0x0064_FF9B_0000_0000_0000_0000_C000_0221)),
        ("1:2:3:4:5:6:1.2.3.4", .v6(0x0001_0002_0003_0004_0005_0006_0102_0304)),
    ]

    static let invalid = [
        "", "1.2.3", "1.2.3.4.5", "256.0.0.1", "01.2.3.4", "1.2.3.00", "1..2.3", "1.2.3.4.", ".1.2.3", " 1.2.3.4",
        "1.2.3.4 ", "a.b.c.d", "1.2.3.-4", "1.2.3.4/32", "4294967295", ":", ":::", "1:2:3:4:5:6:7",
        "1:2:3:4:5:6:7:8:9", "1::2::3", "12345::", "1:2:3:4:5:6:7:8::", "::1:2:3:4:5:6:7:8", ":1::", "1::2:", "1:",
        "fe80::1%eth0", "[::1]", "::g", "1:2:3:4:5:6:7:1.2.3.4", "::1.2.3", "::ffff:1.2.3.04", "1.2.3.4::",
        "::1.2.3.4:5", "::256.1.1.1",
    ]

    @Test(arguments: valid)
    func parses(text: String, expected: IPAddress) {
        #expect(IPAddress(text) == expected)
    }

    @Test(arguments: invalid)
    func refuses(text: String) {
        #expect(IPAddress(text) == nil)
    }

    @Test(arguments: valid.map(\.0) + invalid)
    func agreesWithInetPton(text: String) {
        #expect(IPAddress(text).map(Self.bytes) == Self.inetPton(text))
    }

    @Test func mappedIPv4LooksUpAsIPv4() {
        #expect(IPAddress("::ffff:127.0.0.1")?.unmappingIPv4 == .v4(0x7F00_0001))
        #expect(IPAddress("::FFFF:7f00:1")?.unmappingIPv4 == .v4(0x7F00_0001))
        #expect(IPAddress("127.0.0.1")?.unmappingIPv4 == .v4(0x7F00_0001))
        // IPv4-compatible (deprecated, RFC 4291 §2.5.5.1) and neighbouring addresses stay IPv6.
        #expect(IPAddress("::127.0.0.1")?.unmappingIPv4 == .v6(0x7F00_0001))
        #expect(IPAddress("::fffe:7f00:1")?.unmappingIPv4 == .v6(0xFFFE_7F00_0001))
        #expect(IPAddress("1::ffff:7f00:1")?.unmappingIPv4 == .v6(1 << 112 | 0xFFFF_7F00_0001))
    }

    /// Network byte order, as `inet_pton` writes it.
    static func bytes(_ address: IPAddress) -> [UInt8] {
        switch address {
        case .v4(let value): withUnsafeBytes(of: value.bigEndian, Array.init)
        case .v6(let value): withUnsafeBytes(of: value.bigEndian, Array.init)
        }
    }

    static func inetPton(_ text: String) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: 16)
        let family = text.contains(":") ? AF_INET6 : AF_INET
        guard inet_pton(family, text, &buffer) == 1 else { return nil }
        return Array(buffer.prefix(family == AF_INET ? 4 : 16))
    }
}
