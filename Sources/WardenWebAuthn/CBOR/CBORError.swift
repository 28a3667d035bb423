/// Why ``CBORDecoder`` refused its input: each case a bound or a rule of its strict subset of CBOR (RFC 8949).
public enum CBORError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The input is longer than ``CBORDecoder/maximumInputSize``.
    case tooLarge
    /// Arrays and maps nest deeper than ``CBORDecoder/maximumDepth``.
    case tooDeep
    /// The input ends inside an item, or a length claims more than the bytes that are left.
    case truncated
    /// Bytes follow the item (RFC 8949 §5.3.1: not well-formed where one item is expected).
    case trailingBytes
    /// An indefinite length (additional information 31, RFC 8949 §3.2), including a lone "break".
    case indefiniteLength
    /// An argument not in its shortest form (RFC 8949 §4.2.1, CTAP2 canonical CBOR).
    case nonCanonical
    /// A map has the same key twice (RFC 8949 §5.6).
    case duplicateKey
    /// A tag (major type 6): WebAuthn's structures have none.
    case tag
    /// An item outside the subset: a float, a simple value other than `false`, `true` and `null`, reserved
    /// additional information (28–30), an integer beyond `Int64`, or a map key that is neither integer nor text.
    case unsupported
    /// A text string that is not valid UTF-8 (RFC 8949 §3.1).
    case invalidUTF8

    public var description: String {
        switch self {
        case .tooLarge: "input longer than 64 KiB"
        case .tooDeep: "arrays and maps nested deeper than 16"
        case .truncated: "input ends inside an item"
        case .trailingBytes: "bytes after the item"
        case .indefiniteLength: "indefinite length"
        case .nonCanonical: "length or integer not in its shortest form"
        case .duplicateKey: "duplicate map key"
        case .tag: "tag"
        case .unsupported: "item outside the supported subset"
        case .invalidUTF8: "text string not valid UTF-8"
        }
    }
}
