/// A CBOR data item of the subset WebAuthn needs (RFC 8949 §3; WebAuthn Level 3 §6.5.4 and the COSE keys of
/// §6.5.1.1): integers that fit `Int64`, byte and text strings, arrays, maps keyed by integers or text, `false`,
/// `true` and `null`. ``CBORDecoder`` reads nothing else.
public enum CBORValue: Sendable, Hashable {
    /// Major types 0 and 1: an unsigned or negative integer.
    case integer(Int64)
    /// Major type 2: a byte string.
    case bytes([UInt8])
    /// Major type 3: a UTF-8 text string.
    case text(String)
    /// Major type 4: an array.
    case array([CBORValue])
    /// Major type 5: a map, its keys unique.
    case map([CBORMapKey: CBORValue])
    /// Major type 7, simple values 20 and 21.
    case bool(Bool)
    /// Major type 7, simple value 22.
    case null

    /// The integer, or `nil` for another kind of item.
    public var integer: Int64? {
        if case .integer(let value) = self { value } else { nil }
    }

    /// The byte string, or `nil` for another kind of item.
    public var bytes: [UInt8]? {
        if case .bytes(let value) = self { value } else { nil }
    }

    /// The text string, or `nil` for another kind of item.
    public var text: String? {
        if case .text(let value) = self { value } else { nil }
    }

    /// The array, or `nil` for another kind of item.
    public var array: [CBORValue]? {
        if case .array(let value) = self { value } else { nil }
    }

    /// The map, or `nil` for another kind of item.
    public var map: [CBORMapKey: CBORValue]? {
        if case .map(let value) = self { value } else { nil }
    }
}

/// A key of a CBOR map: COSE keys use integer labels (RFC 9052 §7), attestation objects text (WebAuthn §6.5.4).
public enum CBORMapKey: Sendable, Hashable, ExpressibleByIntegerLiteral, ExpressibleByStringLiteral {
    case integer(Int64)
    case text(String)

    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(stringLiteral value: String) { self = .text(value) }
}
