/// An IPv4 or IPv6 address as an integer key: what the IP database of `--ip-database` is searched by (SPEC §1).
///
/// Parsed straight from the UTF-8 bytes, without `inet_pton` or Foundation. IPv4 is dotted decimal: four
/// decimal octets from 0 to 255 without leading zeros (`010` is octal to some parsers, so it is refused rather
/// than guessed). IPv6 is any text form of RFC 4291 §2.2: eight groups of one to four hexadecimal digits, at
/// most one `::` for one or more zero groups, and optionally a dotted IPv4 address as the low 32 bits
/// (`::ffff:192.0.2.1`). Zone identifiers (`fe80::1%eth0`), brackets and prefix lengths are not addresses and
/// do not parse.
public enum IPAddress: Hashable, Sendable {
    case v4(UInt32)
    case v6(UInt128)

    /// Parses `text`; `nil` unless it is exactly one address in one of the forms above.
    public init?(_ text: String) {
        var text = text
        guard let address = text.withUTF8(Self.init(utf8:)) else { return nil }
        self = address
    }

    /// Parses the UTF-8 bytes of an address: IPv6 when they hold a colon, IPv4 otherwise.
    init?(utf8 bytes: UnsafeBufferPointer<UInt8>) {
        if bytes.contains(UInt8(ascii: ":")) {
            guard let value = Self.parseIPv6(bytes) else { return nil }
            self = .v6(value)
        } else {
            guard let value = Self.parseIPv4(bytes) else { return nil }
            self = .v4(value)
        }
    }

    /// 32 for IPv4, 128 for IPv6: the longest prefix of a network of this family.
    public var bitWidth: Int {
        switch self {
        case .v4: 32
        case .v6: 128
        }
    }

    /// The IPv4 address that an IPv4-mapped IPv6 address (`::ffff:a.b.c.d`, RFC 4291 §2.5.5.2) stands for, and
    /// any other address unchanged: a dual-stack socket reports IPv4 peers in the mapped form, and they look up
    /// as IPv4.
    public var unmappingIPv4: IPAddress {
        guard case .v6(let value) = self, value >> 32 == 0xFFFF else { return self }
        return .v4(UInt32(truncatingIfNeeded: value))
    }

    /// Dotted decimal: exactly four octets 0–255, no leading zeros, nothing else.
    private static func parseIPv4(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt32? {
        var value: UInt32 = 0
        var octet: UInt32 = 0
        var digits = 0
        var dots = 0
        for byte in bytes {
            if byte == UInt8(ascii: ".") {
                guard digits > 0, dots < 3 else { return nil }
                value = value << 8 | octet
                octet = 0
                digits = 0
                dots += 1
                continue
            }
            guard let digit = byte.decimalDigitValue, digits == 0 || octet != 0 else { return nil }
            octet = octet * 10 + digit
            digits += 1
            guard octet <= 255 else { return nil }
        }
        guard digits > 0, dots == 3 else { return nil }
        return value << 8 | octet
    }

    /// RFC 4291 §2.2 text: the 16-bit groups before a `::` fill the address from the top, those after it from
    /// the bottom; a dotted IPv4 address may stand for the last two groups.
    private static func parseIPv6(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt128? {
        var groups = Groups()
        var gap: Int?
        var index = bytes.startIndex
        if bytes.starts(with: "::".utf8) {
            gap = 0
            index += 2
        }
        while index < bytes.endIndex {
            let groupStart = index
            var group: UInt32 = 0
            while index < bytes.endIndex, index - groupStart < 4, let digit = bytes[index].hexDigitValue {
                group = group << 4 | digit
                index += 1
            }
            if index < bytes.endIndex, bytes[index] == UInt8(ascii: ".") {
                guard let ipv4 = parseIPv4(UnsafeBufferPointer(rebasing: bytes[groupStart...])),
                    groups.append(ipv4 >> 16), groups.append(ipv4 & 0xFFFF)
                else { return nil }
                break
            }
            guard index > groupStart, groups.append(group) else { return nil }
            if index == bytes.endIndex { break }
            guard bytes[index] == UInt8(ascii: ":"), index + 1 < bytes.endIndex else { return nil }
            index += 1
            if bytes[index] == UInt8(ascii: ":") {
                guard gap == nil else { return nil }
                gap = groups.count
                index += 1
            }
        }
        return groups.address(gap: gap)
    }

    /// The 16-bit groups of an IPv6 address as written, most significant first.
    private struct Groups {
        private(set) var count = 0
        private var value: UInt128 = 0

        /// Appends one group; `false` when there are eight already.
        mutating func append(_ group: UInt32) -> Bool {
            guard count < 8 else { return false }
            value = value << 16 | UInt128(group)
            count += 1
            return true
        }

        /// The address, the `::` (after `gap` groups) standing for the missing zero groups: one or more of them
        /// (RFC 4291 §2.2), so eight groups and a `::` are too many.
        func address(gap: Int?) -> UInt128? {
            guard let gap else { return count == 8 ? value : nil }
            guard count < 8 else { return nil }
            let tailBits = 16 * (count - gap)
            return (value >> tailBits) << (16 * (8 - gap)) | value & ((1 << tailBits) - 1)
        }
    }
}

extension UInt8 {
    /// The value of an ASCII decimal digit.
    var decimalDigitValue: UInt32? {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) ? UInt32(self &- UInt8(ascii: "0")) : nil
    }
}
