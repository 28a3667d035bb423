/// A strict, bounded CBOR decoder (RFC 8949) for attestation objects, authenticator data extensions and COSE keys
/// (WebAuthn Level 3 §6.5.4, §6.1, §6.5.1.1; SPEC §17: depth ≤ 16, ≤ 64 KiB).
///
/// It reads definite-length items of major types 0–5 and `false`, `true` and `null` of major type 7, each argument
/// in its shortest form, and refuses everything else with a ``CBORError``: indefinite lengths, tags, floats, other
/// simple values, integers beyond `Int64`, map keys other than integers and text, duplicate map keys, invalid
/// UTF-8, bytes after the item. Its work is bounded by its input: every item takes at least one byte, an array or
/// map whose count exceeds the bytes left is refused before anything is allocated, and recursion stops at
/// ``maximumDepth``.
public enum CBORDecoder {
    /// The longest input, in bytes.
    public static let maximumInputSize = 64 * 1024
    /// How deep arrays and maps may nest: the outermost container is at depth 1.
    public static let maximumDepth = 16

    /// Decodes `bytes` as exactly one item.
    public static func decode(_ bytes: [UInt8]) throws(CBORError) -> CBORValue {
        let (value, end) = try decodePrefix(bytes, from: 0)
        guard end == bytes.count else { throw .trailingBytes }
        return value
    }

    /// Decodes the one item that starts at `offset` and returns it with the offset just past it: how authenticator
    /// data's credential public key and extensions, which carry no length of their own, are read (WebAuthn §6.1).
    public static func decodePrefix(_ bytes: [UInt8], from offset: Int) throws(CBORError) -> (
        value: CBORValue, end: Int
    ) {
        guard bytes.count <= maximumInputSize else { throw .tooLarge }
        var reader = Reader(bytes: bytes, offset: min(max(offset, 0), bytes.count))
        let value = try reader.item(depth: 0)
        return (value, reader.offset)
    }
}

/// A cursor over the input: each read checks the bytes that are left.
private struct Reader {
    let bytes: [UInt8]
    var offset: Int

    var remaining: Int { bytes.count - offset }

    mutating func byte() throws(CBORError) -> UInt8 {
        guard offset < bytes.count else { throw .truncated }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func take(_ count: UInt64) throws(CBORError) -> ArraySlice<UInt8> {
        guard count <= UInt64(remaining) else { throw .truncated }
        let start = offset
        offset += Int(count)
        return bytes[start..<offset]
    }

    /// The argument of an item's head (RFC 8949 §3): the additional information itself below 24, else the 1, 2, 4
    /// or 8 bytes after it, which must be needed (the shortest form, RFC 8949 §4.2.1).
    mutating func argument(_ info: UInt8) throws(CBORError) -> UInt64 {
        let width: UInt64
        switch info {
        case 0..<24: return UInt64(info)
        case 24: width = 1
        case 25: width = 2
        case 26: width = 4
        case 27: width = 8
        case 31: throw .indefiniteLength
        default: throw .unsupported
        }
        var value: UInt64 = 0
        for byte in try take(width) { value = value << 8 | UInt64(byte) }
        let shortest: UInt64 = width == 1 ? 24 : 1 << (4 * width)
        guard value >= shortest else { throw .nonCanonical }
        return value
    }

    /// The item at the cursor; `depth` counts the arrays and maps around it.
    mutating func item(depth: Int) throws(CBORError) -> CBORValue {
        let head = try byte()
        let info = head & 0x1F
        switch head >> 5 {
        case 0: return try .integer(integer(argument(info)))
        case 1: return try .integer(-1 - integer(argument(info)))
        case 2: return try .bytes(Array(take(argument(info))))
        case 3:
            guard let text = String(validating: try take(argument(info)), as: UTF8.self) else { throw .invalidUTF8 }
            return .text(text)
        case 4:
            let count = try containerCount(info, depth: depth, bytesPerEntry: 1)
            var items: [CBORValue] = []
            items.reserveCapacity(count)
            for _ in 0..<count { items.append(try item(depth: depth + 1)) }
            return .array(items)
        case 5:
            let count = try containerCount(info, depth: depth, bytesPerEntry: 2)
            var entries: [CBORMapKey: CBORValue] = [:]
            entries.reserveCapacity(count)
            for _ in 0..<count {
                let key: CBORMapKey
                switch try item(depth: depth + 1) {
                case .integer(let value): key = .integer(value)
                case .text(let value): key = .text(value)
                default: throw .unsupported
                }
                guard entries.updateValue(try item(depth: depth + 1), forKey: key) == nil else { throw .duplicateKey }
            }
            return .map(entries)
        case 6: throw .tag
        default: return try simple(info)
        }
    }

    func integer(_ argument: UInt64) throws(CBORError) -> Int64 {
        guard argument <= UInt64(Int64.max) else { throw .unsupported }
        return Int64(argument)
    }

    /// Major type 7: only `false`, `true` and `null` (RFC 8949 §3.3).
    func simple(_ info: UInt8) throws(CBORError) -> CBORValue {
        switch info {
        case 20: .bool(false)
        case 21: .bool(true)
        case 22: .null
        case 31: throw .indefiniteLength
        default: throw .unsupported
        }
    }

    /// The number of entries of an array or map, refused before any is read when the container would nest too deep
    /// or claims more entries than the bytes left could hold.
    mutating func containerCount(_ info: UInt8, depth: Int, bytesPerEntry: UInt64) throws(CBORError) -> Int {
        guard depth < CBORDecoder.maximumDepth else { throw .tooDeep }
        let count = try argument(info)
        guard count <= UInt64(remaining) / bytesPerEntry else { throw .truncated }
        return Int(count)
    }
}
