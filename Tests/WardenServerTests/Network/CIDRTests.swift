import Testing
import WardenWire

@testable import WardenServer

/// `--trusted-proxies` networks (SPEC §1): which peers may name the client IP in `X-Forwarded-For`.
@Suite("CIDR: trusted proxy networks")
struct CIDRTests {
    @Test(arguments: [
        ("10.0.0.0/8", "10.255.1.2", true),
        ("10.0.0.0/8", "11.0.0.1", false),
        ("192.0.2.128/25", "192.0.2.200", true),
        ("192.0.2.128/25", "192.0.2.127", false),
        ("127.0.0.1", "127.0.0.1", true),
        ("127.0.0.1", "127.0.0.2", false),
        ("0.0.0.0/0", "198.51.100.9", true),
        ("10.0.0.0/8", "::ffff:10.1.2.3", true),
        ("2001:db8::/32", "2001:db8:ffff::1", true),
        ("2001:db8::/32", "2001:db9::1", false),
        ("::1/128", "::1", true),
        ("::/0", "10.0.0.1", false),
        ("10.0.0.0/8", "not an address", false),
    ])
    func contains(network: String, address: String, inside: Bool) throws {
        #expect(try #require(CIDR(network)).contains(address) == inside)
    }

    @Test(arguments: ["10.0.0.0/33", "::/129", "10.0.0.0/-1", "10.0.0.0/x", "10.0.0", "example.com/8", "010.0.0.0/8"])
    func refuses(network: String) {
        #expect(CIDR(network) == nil)
    }
}
