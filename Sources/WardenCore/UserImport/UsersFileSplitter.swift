/// Cuts a users file (SPEC §9 "Bulk users") into its entries' bytes as the file streams in, so that a file of any
/// size is read with bounded memory: the vendor's JSON array (`[{…}, {…}]`), or its export format, one JSON
/// object a line (NDJSON). The splitter tracks nesting and strings only; each entry is parsed on its own
/// afterwards (``JSONBytesParser``), so a malformed entry fails alone and the rest still go in.
public struct UsersFileSplitter {
    /// The file is neither a JSON array nor a sequence of JSON objects.
    public struct FormatError: Error, Equatable, Sendable {
        public var message: String
    }

    private enum Layout { case unknown, array, lines, closed }

    private var layout = Layout.unknown
    private var depth = 0
    private var inString = false
    private var escaped = false
    /// The bytes of an entry cut by the end of the previous chunk.
    private var partial: [UInt8] = []
    private var inEntry = false

    public init() {}

    /// Feeds the next chunk; `entry` receives each complete entry's bytes, in file order.
    public mutating func feed(_ chunk: some Collection<UInt8>, entry: ([UInt8]) throws -> Void) throws {
        var start: Int? = inEntry ? 0 : nil
        let bytes = Array(chunk)
        for (index, byte) in bytes.enumerated() {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            let isWhitespace = byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
            switch layout {
            case .unknown:
                if isWhitespace { continue }
                if byte == UInt8(ascii: "[") {
                    layout = .array
                    depth = 1
                    continue
                }
                guard byte == UInt8(ascii: "{") else {
                    throw FormatError(message: "The users file must be a JSON array of user objects")
                }
                layout = .lines
            case .closed:
                guard isWhitespace else { throw FormatError(message: "Unexpected data after the users array") }
                continue
            case .array, .lines:
                break
            }
            if !inEntry {
                if isWhitespace { continue }
                if layout == .array, depth == 1, byte == UInt8(ascii: "]") {
                    layout = .closed
                    continue
                }
                if layout == .array, byte == UInt8(ascii: ",") { continue }
                guard layout == .array || byte == UInt8(ascii: "{") else {
                    throw FormatError(message: "Each line of an NDJSON users file must be a JSON object")
                }
                inEntry = true
                start = index
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if layout == .array, depth == 1, byte == UInt8(ascii: "]") {
                    // `]` closing the array right after an entry.
                    try finishEntry(bytes[start!..<index], entry)
                    start = nil
                    layout = .closed
                    continue
                }
                depth = max(depth - 1, 0)
                if layout == .lines, depth == 0 {
                    try finishEntry(bytes[start!...index], entry)
                    start = nil
                }
            case UInt8(ascii: ","):
                if layout == .array, depth == 1 {
                    try finishEntry(bytes[start!..<index], entry)
                    start = nil
                }
            default:
                break
            }
        }
        if inEntry, let start { partial.append(contentsOf: bytes[start...]) }
    }

    /// Checks that the file ended where it may: after the closing `]`, or between NDJSON objects.
    public func finish() throws {
        switch layout {
        case .unknown: throw FormatError(message: "The users file is empty")
        case .array: throw FormatError(message: "The users array is not closed")
        case .lines where inEntry || inString: throw FormatError(message: "The last entry is not closed")
        case .lines, .closed: return
        }
    }

    private mutating func finishEntry(_ tail: ArraySlice<UInt8>, _ entry: ([UInt8]) throws -> Void) throws {
        inEntry = false
        if partial.isEmpty {
            try entry(Array(tail))
        } else {
            partial.append(contentsOf: tail)
            try entry(partial)
            partial.removeAll(keepingCapacity: true)
        }
    }
}
