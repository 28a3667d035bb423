import Foundation

/// Why an IP database was refused (SPEC §1 `--ip-database`): the file, the 1-based line when one is to blame,
/// and what is wrong with it.
public struct IPDatabaseError: Error, Sendable, Equatable, CustomStringConvertible {
    public var path: String?
    public var line: Int?
    public var reason: String

    public init(path: String? = nil, line: Int? = nil, reason: String) {
        self.path = path
        self.line = line
        self.reason = reason
    }

    public var description: String {
        "ip database" + (path.map { " \($0)" } ?? "") + (line.map { " line \($0)" } ?? "") + ": \(reason)"
    }
}

/// The loader of the public ip2asn "combined" TSV (SPEC §1 `--ip-database`): one range a line,
/// `range_start\trange_end\tAS_number\tcountry_code\tAS_description`, IPv4 and IPv6 ranges in one file.
///
/// - Addresses are in the text forms of ``IPAddress``; both ends of a range are of one family, start ≤ end.
/// - `AS_number` is decimal, 0 to 2³²−1; AS 0 marks a range as not routed, which is checked and then left out
///   (a lookup there gives `nil`).
/// - `country_code` is two ASCII letters (stored upper case) or `None` (also `Unknown`) for no country.
/// - `AS_description` is not kept; fields after the fourth are not read. Empty lines are skipped; `\r\n` line
///   ends are accepted.
/// - Ranges may come in any order: each family is sorted by start. Overlapping ranges are refused, naming
///   both lines, rather than resolved by a guess, since ip2asn never emits them and an overlap means a
///   corrupt or hand-edited file. A file without a single line of ranges is refused too (a truncated
///   download, say), so that a reload never swaps a working table for an empty one.
///
/// Any other line is an ``IPDatabaseError`` naming its line number; the whole file is then refused.
extension IPRangeTable {
    /// Reads and parses the file at `path`. The file is read into memory first rather than mapped, so that one
    /// being rewritten in place meanwhile gives a bad line at worst, never a crash.
    public convenience init(contentsOfFile path: String) throws {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw IPDatabaseError(path: path, reason: "cannot be read: \(error.localizedDescription)")
        }
        let ranges: (Ranges<UInt32>, Ranges<UInt128>)
        do {
            ranges = try data.withUnsafeBytes(TSVReader.read)
        } catch var error as IPDatabaseError {
            error.path = path
            throw error
        }
        self.init(ipv4: ranges.0, ipv6: ranges.1)
    }

    /// Parses the TSV in `bytes`.
    public convenience init(tsv bytes: [UInt8]) throws {
        let (ipv4, ipv6) = try bytes.withUnsafeBytes(TSVReader.read)
        self.init(ipv4: ipv4, ipv6: ipv6)
    }
}

/// One pass over the TSV bytes, line by line, without copying them.
private enum TSVReader {
    static func read(_ raw: UnsafeRawBufferPointer) throws -> (Ranges<UInt32>, Ranges<UInt128>) {
        try raw.withMemoryRebound(to: UInt8.self, read)
    }

    private static func read(_ bytes: UnsafeBufferPointer<UInt8>) throws -> (Ranges<UInt32>, Ranges<UInt128>) {
        var ipv4 = RangeBuilder<UInt32>()
        var ipv6 = RangeBuilder<UInt128>()
        var lineNumber = 0
        var anyLine = false
        var lineStart = bytes.startIndex
        while lineStart < bytes.endIndex {
            lineNumber += 1
            let lineEnd = bytes[lineStart...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.endIndex
            var line = bytes[lineStart..<lineEnd]
            lineStart = lineEnd + 1
            if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
            guard !line.isEmpty else { continue }
            anyLine = true
            do throws(Reason) {
                try readLine(UnsafeBufferPointer(rebasing: line), line: lineNumber, ipv4: &ipv4, ipv6: &ipv6)
            } catch {
                throw IPDatabaseError(line: lineNumber, reason: error.text)
            }
        }
        guard anyLine else { throw IPDatabaseError(reason: "no ranges") }
        return (try ipv4.build(), try ipv6.build())
    }

    private static func readLine(
        _ bytes: UnsafeBufferPointer<UInt8>, line: Int, ipv4: inout RangeBuilder<UInt32>,
        ipv6: inout RangeBuilder<UInt128>
    ) throws(Reason) {
        var fields = Fields(rest: bytes[...])
        guard let startText = fields.next(), let endText = fields.next(), let asnText = fields.next(),
            let countryText = fields.next()
        else {
            throw Reason("expected range_start, range_end, AS_number, country_code and AS_description, tab-separated")
        }
        guard let start = IPAddress(utf8: startText) else {
            throw Reason("range_start \(quoted(startText)) is not an IP address")
        }
        guard let end = IPAddress(utf8: endText) else {
            throw Reason("range_end \(quoted(endText)) is not an IP address")
        }
        guard let asn = UInt32(decimal: asnText) else {
            throw Reason("AS_number \(quoted(asnText)) is not a number from 0 to 4294967295")
        }
        guard let country = countryCode(countryText) else {
            throw Reason("country_code \(quoted(countryText)) is neither two letters nor None")
        }
        let value = PackedIPInfo(asn: asn, country: country)
        switch (start, end) {
        case (.v4(let start), .v4(let end)): try ipv4.append(start, end, value, line: line)
        case (.v6(let start), .v6(let end)): try ipv6.append(start, end, value, line: line)
        default: throw Reason("range_start and range_end are not of one address family")
        }
    }

    /// Two letters upper-cased into 16 bits, 0 for `None`/`Unknown`, `nil` for anything else.
    private static func countryCode(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt16? {
        if bytes.elementsEqual("None".utf8) || bytes.elementsEqual("Unknown".utf8) { return 0 }
        // Clearing bit 5 upper-cases an ASCII letter and turns no other byte into one.
        guard bytes.count == 2, case (let first, let second) = (bytes[0] & ~0x20, bytes[1] & ~0x20),
            isLetter(first), isLetter(second)
        else { return nil }
        return UInt16(first) << 8 | UInt16(second)
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
    }

    private static func quoted(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        "\"\(String(decoding: bytes, as: UTF8.self))\""
    }
}

/// What is wrong with one line; ``TSVReader`` adds the line number.
private struct Reason: Error {
    let text: String

    init(_ text: String) { self.text = text }
}

/// The tab-separated fields of one line, in order.
private struct Fields {
    var rest: Slice<UnsafeBufferPointer<UInt8>>?

    mutating func next() -> UnsafeBufferPointer<UInt8>? {
        guard let current = rest else { return nil }
        guard let tab = current.firstIndex(of: UInt8(ascii: "\t")) else {
            rest = nil
            return UnsafeBufferPointer(rebasing: current)
        }
        rest = current[(tab + 1)...]
        return UnsafeBufferPointer(rebasing: current[..<tab])
    }
}

/// The ranges of one family as read, with their line numbers for the error messages, until sorted and checked.
private struct RangeBuilder<Key: FixedWidthInteger & UnsignedInteger & Sendable> {
    private var rows: [(start: Key, end: Key, value: PackedIPInfo, line: Int)] = []
    private var sorted = true

    /// Adds a range unless it is of AS 0 (not routed).
    mutating func append(_ start: Key, _ end: Key, _ value: PackedIPInfo, line: Int) throws(Reason) {
        guard start <= end else { throw Reason("range_start is after range_end") }
        guard value.isRouted else { return }
        if let last = rows.last, last.start > start { sorted = false }
        rows.append((start, end, value, line))
    }

    /// Sorts the ranges by start (then line, so that the result never depends on the sort's stability) and
    /// refuses the first overlap.
    func build() throws -> Ranges<Key> {
        let rows = sorted ? rows : rows.sorted { ($0.start, $0.line) < ($1.start, $1.line) }
        for (previous, row) in zip(rows, rows.dropFirst()) where row.start <= previous.end {
            let (first, second) = (min(previous.line, row.line), max(previous.line, row.line))
            throw IPDatabaseError(line: second, reason: "range overlaps the range on line \(first)")
        }
        return Ranges(starts: rows.map(\.start), ends: rows.map(\.end), values: rows.map(\.value))
    }
}

extension UInt32 {
    /// ASCII decimal digits, at least one, without sign or overflow.
    fileprivate init?(decimal bytes: UnsafeBufferPointer<UInt8>) {
        guard !bytes.isEmpty else { return nil }
        var value: UInt32 = 0
        for byte in bytes {
            guard let digit = byte.decimalDigitValue else { return nil }
            let (times10, overflow) = value.multipliedReportingOverflow(by: 10)
            let (sum, carry) = times10.addingReportingOverflow(digit)
            guard !overflow, !carry else { return nil }
            value = sum
        }
        self = value
    }
}
