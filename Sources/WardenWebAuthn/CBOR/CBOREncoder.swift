/// A CBOR encoder in RFC 8949 §4.2.1's deterministic encoding (shortest arguments, map keys sorted by their encoded
/// bytes, as CTAP2 §8 requires): what a software authenticator needs to make attestation objects and COSE keys the
/// verifiers read — the tests', the benchmarks', an SDK's.
public enum CBOREncoder {
    /// The deterministic encoding of `value`.
    public static func encode(_ value: CBORValue) -> [UInt8] {
        switch value {
        case .integer(let value) where value >= 0: head(0, UInt64(value))
        case .integer(let value): head(1, UInt64(-1 - value))
        case .bytes(let bytes): head(2, UInt64(bytes.count)) + bytes
        case .text(let text): head(3, UInt64(text.utf8.count)) + Array(text.utf8)
        case .array(let items): head(4, UInt64(items.count)) + items.flatMap(encode)
        case .map(let entries):
            head(5, UInt64(entries.count))
                + entries.map { (key: encode(key: $0.key), value: encode($0.value)) }
                .sorted { $0.key.lexicographicallyPrecedes($1.key) }.flatMap { $0.key + $0.value }
        case .bool(let value): [value ? 0xF5 : 0xF4]
        case .null: [0xF6]
        }
    }

    /// The encoding of a map key.
    public static func encode(key: CBORMapKey) -> [UInt8] {
        switch key {
        case .integer(let value): encode(.integer(value))
        case .text(let value): encode(.text(value))
        }
    }

    /// An item's head: the major type and the argument in its shortest form (RFC 8949 §3).
    static func head(_ major: UInt8, _ argument: UInt64) -> [UInt8] {
        let type = major << 5
        return switch argument {
        case 0..<24: [type | UInt8(argument)]
        case 24...0xFF: [type | 24, UInt8(argument)]
        case 0x100...0xFFFF: [type | 25] + bigEndian(argument, width: 2)
        case 0x1_0000...0xFFFF_FFFF: [type | 26] + bigEndian(argument, width: 4)
        default: [type | 27] + bigEndian(argument, width: 8)
        }
    }

    /// The `width` low bytes of `value`, most significant first: CBOR's arguments, and authenticator data's counter
    /// and credential ID length (WebAuthn Level 3 §6.1).
    public static func bigEndian(_ value: UInt64, width: Int) -> [UInt8] {
        (0..<width).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
    }
}
