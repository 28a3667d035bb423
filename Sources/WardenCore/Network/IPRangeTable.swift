/// The IP database of `--ip-database` in memory (SPEC §1): address ranges and the AS number and country of
/// each, searched by binary search.
///
/// IPv4 and IPv6 ranges are kept apart, each as sorted, non-overlapping parallel arrays of range starts, range
/// ends and packed ASN/country values (16 bytes a range for IPv4, 40 for IPv6), so that a lookup touches
/// `log2(n)` starts and one end and allocates nothing. Ranges of AS 0 ("not routed") are not stored: looking an
/// address up in one gives `nil`, as for an address outside every range. The table is immutable, so one
/// instance is shared by every request and swapped whole on reload.
public final class IPRangeTable: Sendable {
    let ipv4: Ranges<UInt32>
    let ipv6: Ranges<UInt128>

    init(ipv4: Ranges<UInt32>, ipv6: Ranges<UInt128>) {
        self.ipv4 = ipv4
        self.ipv6 = ipv6
    }

    /// The number of (routed) ranges.
    public var count: Int { ipv4.count + ipv6.count }

    /// The bytes the table's arrays take (logged on load, and the memory figure of the IPLookup benchmark).
    public var byteCount: Int { ipv4.byteCount + ipv6.byteCount }

    /// The ASN and country of the routed range holding `address`, or `nil`. An IPv4-mapped IPv6 address looks
    /// up as the IPv4 address it carries (``IPAddress/unmappingIPv4``).
    public func lookup(_ address: IPAddress) -> IPInfo? {
        switch address.unmappingIPv4 {
        case .v4(let key): ipv4.find(key)?.info
        case .v6(let key): ipv6.find(key)?.info
        }
    }
}

/// The sorted, non-overlapping ranges of one address family. A range is an inclusive start–end pair rather than
/// a CIDR prefix (RFC 4632): ip2asn merges the adjacent prefixes of one AS into one range, which need not be a
/// prefix.
struct Ranges<Key: FixedWidthInteger & UnsignedInteger & Sendable>: Sendable {
    let starts: [Key]
    let ends: [Key]
    let values: [PackedIPInfo]

    var count: Int { starts.count }

    var byteCount: Int {
        starts.capacity * MemoryLayout<Key>.stride + ends.capacity * MemoryLayout<Key>.stride
            + values.capacity * MemoryLayout<PackedIPInfo>.stride
    }

    /// The value of the range holding `key`: the last range starting at or before `key`, if it ends at or after.
    func find(_ key: Key) -> PackedIPInfo? {
        starts.withUnsafeBufferPointer { starts in
            var base = 0
            var length = starts.count
            while length > 1 {
                let half = length / 2
                if starts[base + half] <= key { base += half }
                length -= half
            }
            guard length == 1, starts[base] <= key, key <= ends[base] else { return nil }
            return values[base]
        }
    }
}

/// An AS number and a country code in one word: the ASN in bits 16–47 and the two ASCII letters of the country
/// in bits 0–15 (0 for none).
struct PackedIPInfo: Sendable, Equatable {
    let rawValue: UInt64

    init(asn: UInt32, country: UInt16) {
        rawValue = UInt64(asn) << 16 | UInt64(country)
    }

    /// AS 0 marks address space that no AS announces.
    var isRouted: Bool { rawValue >> 16 != 0 }

    var info: IPInfo {
        let country = UInt16(truncatingIfNeeded: rawValue)
        let code =
            country == 0
            ? nil
            : String(unsafeUninitializedCapacity: 2) { utf8 in
                utf8[0] = UInt8(truncatingIfNeeded: country >> 8)
                utf8[1] = UInt8(truncatingIfNeeded: country)
                return 2
            }
        return IPInfo(asn: Int(rawValue >> 16), countryCode: code)
    }
}
