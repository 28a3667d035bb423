import WardenCore

/// A made-up ip2asn "combined" TSV of 500,000 ranges, about the size of the real one: 300,000 IPv4 ranges
/// over the whole space and 200,000 IPv6 ranges in 2000::/3 (global unicast), non-overlapping, with random AS
/// numbers and countries; and 65,536 addresses to look up, nine in ten inside a range. The same seed gives the
/// same bytes on every run.
struct SyntheticIPDatabase: Sendable {
    static let rangeCount = (ipv4: 300_000, ipv6: 200_000)
    static let probeCount = 1 << 16
    static let shared = SyntheticIPDatabase(seed: 0x5EED_0001)

    /// The TSV, as `--ip-database` would read it.
    let tsv: [UInt8]
    /// The table loaded from ``tsv``.
    let table: IPRangeTable
    /// Addresses as a request carries them, 60 % IPv4.
    let probes: [String]

    init(seed: UInt64) {
        var random = SplitMix64(state: seed)
        let ipv4 = Self.ranges(Self.rangeCount.ipv4, in: UInt32.min...UInt32.max, using: &random)
        let ipv6 = Self.ranges(
            Self.rangeCount.ipv6, in: UInt128(0x2000) << 112...(UInt128(0x4000) << 112) - 1, using: &random)
        let countries = ["US", "DE", "CN", "JP", "GB", "FR", "BR", "IN", "RU", "NL", "KR", "AU", "None"]
        var text = ""
        text.reserveCapacity(40 * ipv4.count + 90 * ipv6.count)
        func line(_ start: String, _ end: String) {
            let asn = UInt32.random(in: 1...400_000, using: &random)
            text += "\(start)\t\(end)\t\(asn)\t\(countries.randomElement(using: &random)!)\tAS\(asn)\n"
        }
        for (start, end) in ipv4 { line(Self.text(ipv4: start), Self.text(ipv4: end)) }
        for (start, end) in ipv6 { line(Self.text(ipv6: start), Self.text(ipv6: end)) }
        tsv = Array(text.utf8)
        table = try! IPRangeTable(tsv: tsv)
        probes = (0..<Self.probeCount).map { _ in
            let inRange = Int.random(in: 0..<10, using: &random) < 9
            if Int.random(in: 0..<10, using: &random) < 6 {
                let (start, end) = inRange ? ipv4.randomElement(using: &random)! : (UInt32.min, UInt32.max)
                return Self.text(ipv4: UInt32.random(in: start...end, using: &random))
            }
            let (start, end) = inRange ? ipv6.randomElement(using: &random)! : (UInt128.min, UInt128.max)
            return Self.text(ipv6: UInt128.random(in: start...end, using: &random))
        }
    }

    /// `count` non-overlapping ranges in `bounds`: distinct random cut points, sorted, taken in pairs.
    private static func ranges<Key: FixedWidthInteger & UnsignedInteger>(
        _ count: Int, in bounds: ClosedRange<Key>, using random: inout SplitMix64
    ) -> [(Key, Key)] {
        var cuts = Set<Key>()
        while cuts.count < 2 * count { cuts.insert(Key.random(in: bounds, using: &random)) }
        let sorted = cuts.sorted()
        return stride(from: 0, to: sorted.count, by: 2).map { (sorted[$0], sorted[$0 + 1]) }
    }

    private static func text(ipv4 value: UInt32) -> String {
        stride(from: 24, through: 0, by: -8).map { String(UInt8(truncatingIfNeeded: value >> $0)) }
            .joined(separator: ".")
    }

    /// Eight groups without `::` compression (RFC 4291 §2.2, first form).
    private static func text(ipv6 value: UInt128) -> String {
        stride(from: 112, through: 0, by: -16).map { String(UInt16(truncatingIfNeeded: value >> $0), radix: 16) }
            .joined(separator: ":")
    }
}

/// SplitMix64 (Steele, Lea, Flood 2014): a small, fast generator whose sequence depends on the seed alone.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}
