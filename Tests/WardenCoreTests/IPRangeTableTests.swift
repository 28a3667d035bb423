import Foundation
import Testing
import WardenCore
import WardenWire

/// The ip2asn "combined" TSV (SPEC §1 `--ip-database`) and lookups at the edges of its ranges.
@Suite("IP range table")
struct IPRangeTableTests {
    /// `tests/fixtures/ip2asn-sample.tsv`, also used by the interoperability tests.
    static let fixturePath = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("tests/fixtures/ip2asn-sample.tsv").path

    static let fixtureLookups: [(String, IPInfo?)] = [
        ("126.255.255.255", nil),
        ("127.0.0.0", IPInfo(asn: 64500, countryCode: "DE")),
        ("127.0.0.1", IPInfo(asn: 64500, countryCode: "DE")),
        ("127.0.0.2", IPInfo(asn: 64501, countryCode: "US")),
        ("127.0.0.255", IPInfo(asn: 64501, countryCode: "US")),
        ("127.0.1.0", IPInfo(asn: 64502, countryCode: nil)),
        ("127.0.1.255", IPInfo(asn: 64502, countryCode: nil)),
        ("127.0.2.0", nil),  // AS 0: not routed
        ("127.0.3.0", nil),
        ("1.0.0.255", IPInfo(asn: 13335, countryCode: "US")),
        ("1.0.1.0", nil),
        ("::ffff:127.0.0.1", IPInfo(asn: 64500, countryCode: "DE")),
        ("::ffff:127.0.0.2", IPInfo(asn: 64501, countryCode: "US")),
        ("::", nil),
        ("::1", IPInfo(asn: 64504, countryCode: "JP")),
        ("::2", nil),
        ("2001:db7:ffff:ffff:ffff:ffff:ffff:ffff", nil),
        ("2001:db8::", IPInfo(asn: 64505, countryCode: "NL")),
        ("2001:db8::1", IPInfo(asn: 64505, countryCode: "NL")),
        ("2001:db8:ffff:ffff:ffff:ffff:ffff:ffff", IPInfo(asn: 64505, countryCode: "NL")),
        ("2001:db9::", nil),
        ("fe80::1", nil),
    ]

    @Test(arguments: fixtureLookups)
    func fixture(address: String, expected: IPInfo?) throws {
        let table = try IPRangeTable(contentsOfFile: Self.fixturePath)
        #expect(table.lookup(try #require(IPAddress(address))) == expected)
    }

    @Test func fixtureKeepsOnlyRoutedRanges() throws {
        let table = try IPRangeTable(contentsOfFile: Self.fixturePath)
        #expect(table.count == 9)
        #expect(table.byteCount >= 6 * 16 + 3 * 40)
    }

    @Test func edgesOfTheAddressSpace() throws {
        let table = try Self.table([
            "0.0.0.0\t0.0.0.255\t1\tus\tlow", "255.255.255.0\t255.255.255.255\t2\tGB\thigh",
            "::\t::ff\t3\tSE\tlow6", "ffff::\tffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff\t4\tNO\thigh6",
        ])
        #expect(Self.lookup("0.0.0.0", in: table) == IPInfo(asn: 1, countryCode: "US"))
        #expect(Self.lookup("0.0.1.0", in: table) == nil)
        #expect(Self.lookup("255.255.254.255", in: table) == nil)
        #expect(Self.lookup("255.255.255.255", in: table) == IPInfo(asn: 2, countryCode: "GB"))
        #expect(Self.lookup("::", in: table) == IPInfo(asn: 3, countryCode: "SE"))
        #expect(Self.lookup("::100", in: table) == nil)
        #expect(Self.lookup("fffe:ffff:ffff:ffff:ffff:ffff:ffff:ffff", in: table) == nil)
        #expect(
            Self.lookup("ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", in: table) == IPInfo(asn: 4, countryCode: "NO"))
    }

    @Test func emptyFamilyAndSingleRange() throws {
        let table = try Self.table(["10.0.0.5\t10.0.0.5\t4294967295\tNone\tone address"])
        #expect(Self.lookup("10.0.0.5", in: table) == IPInfo(asn: 4_294_967_295, countryCode: nil))
        #expect(Self.lookup("10.0.0.4", in: table) == nil)
        #expect(Self.lookup("10.0.0.6", in: table) == nil)
        #expect(Self.lookup("::1", in: table) == nil)
    }

    @Test func unsortedInputIsSorted() throws {
        let table = try Self.table([
            "2001:db8::\t2001:db8::ffff\t30\tFR\tc", "10.0.2.0\t10.0.2.255\t20\tDE\tb", "::1\t::1\t40\tIT\td",
            "10.0.0.0\t10.0.0.255\t10\tUS\ta",
        ])
        #expect(Self.lookup("10.0.0.7", in: table)?.asn == 10)
        #expect(Self.lookup("10.0.1.7", in: table) == nil)
        #expect(Self.lookup("10.0.2.7", in: table)?.asn == 20)
        #expect(Self.lookup("::1", in: table)?.asn == 40)
        #expect(Self.lookup("2001:db8::fff", in: table)?.asn == 30)
    }

    @Test func windowsLineEndsAndEmptyLines() throws {
        let table = try IPRangeTable(tsv: Array("\r\n10.0.0.0\t10.0.0.255\t10\tUS\ta\r\n\n".utf8))
        #expect(Self.lookup("10.0.0.1", in: table) == IPInfo(asn: 10, countryCode: "US"))
    }

    @Test func unknownCountryIsNone() throws {
        let table = try Self.table(["10.0.0.0\t10.0.0.255\t10\tUnknown\ta"])
        #expect(Self.lookup("10.0.0.1", in: table) == IPInfo(asn: 10, countryCode: nil))
    }

    static let malformed: [(lines: [String], line: Int, reason: String)] = [
        (
            ["10.0.0.0\t10.0.0.255\t10\tUS\ta", "10.0.1.0\t10.0.1.255\t10"], 2,
            "expected range_start, range_end, AS_number, country_code and AS_description, tab-separated"
        ),
        (
            ["10.0.0.0 10.0.0.255 10 US a"], 1,
            "expected range_start, range_end, AS_number, country_code and AS_description, tab-separated"
        ),
        (["", "10.0.0\t10.0.0.255\t10\tUS\ta"], 2, "range_start \"10.0.0\" is not an IP address"),
        (["10.0.0.0\t10.0.0.256\t10\tUS\ta"], 1, "range_end \"10.0.0.256\" is not an IP address"),
        (["10.0.0.0\t::1\t10\tUS\ta"], 1, "range_start and range_end are not of one address family"),
        (["10.0.0.9\t10.0.0.1\t10\tUS\ta"], 1, "range_start is after range_end"),
        (["10.0.0.9\t10.0.0.1\t0\tNone\tNot routed"], 1, "range_start is after range_end"),
        (["10.0.0.0\t10.0.0.255\tAS10\tUS\ta"], 1, "AS_number \"AS10\" is not a number from 0 to 4294967295"),
        (
            ["10.0.0.0\t10.0.0.255\t4294967296\tUS\ta"], 1,
            "AS_number \"4294967296\" is not a number from 0 to 4294967295"
        ),
        (["10.0.0.0\t10.0.0.255\t-1\tUS\ta"], 1, "AS_number \"-1\" is not a number from 0 to 4294967295"),
        (["10.0.0.0\t10.0.0.255\t\tUS\ta"], 1, "AS_number \"\" is not a number from 0 to 4294967295"),
        (["10.0.0.0\t10.0.0.255\t10\tUSA\ta"], 1, "country_code \"USA\" is neither two letters nor None"),
        (["10.0.0.0\t10.0.0.255\t10\tU1\ta"], 1, "country_code \"U1\" is neither two letters nor None"),
        (["10.0.0.0\t10.0.0.255\t10\t\ta"], 1, "country_code \"\" is neither two letters nor None"),
        (
            ["10.0.0.0\t10.0.0.255\t10\tUS\ta", "10.0.1.0\t10.0.1.255\t10\tUS\ta", "10.0.0.255\t10.0.0.255\t10\tUS\t"],
            3, "range overlaps the range on line 1"
        ),
        (
            ["2001:db8::\t2001:db8::ff\t10\tUS\ta", "2001:db8::80\t2001:db8::1ff\t11\tUS\ta"], 2,
            "range overlaps the range on line 1"
        ),
        // Unsorted: the overlap is found after sorting and still names both lines in file order.
        (
            ["10.0.1.0\t10.0.1.255\t10\tUS\ta", "10.0.0.0\t10.0.1.0\t10\tUS\ta"], 2,
            "range overlaps the range on line 1"
        ),
    ]

    @Test(arguments: malformed)
    func malformedLineNamesItsNumber(lines: [String], line: Int, reason: String) {
        #expect(throws: IPDatabaseError(line: line, reason: reason)) { try Self.table(lines) }
    }

    @Test func notRoutedRangesMayOverlapRoutedOnes() throws {
        let table = try Self.table(["10.0.0.0\t10.255.255.255\t0\tNone\tNot routed", "10.1.0.0\t10.1.0.255\t7\tUS\ta"])
        #expect(Self.lookup("10.1.0.1", in: table)?.asn == 7)
        #expect(Self.lookup("10.2.0.1", in: table) == nil)
    }

    @Test func emptyFileIsRefused() {
        #expect(throws: IPDatabaseError(reason: "no ranges")) { try IPRangeTable(tsv: Array("\n\r\n".utf8)) }
    }

    @Test func errorsNameTheFile() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("ip2asn-\(UUID().uuidString).tsv")
        defer { try? FileManager.default.removeItem(at: path) }
        try Data("10.0.0.0\t10.0.0.255\t10\tUS\ta\nnot a line\n".utf8).write(to: path)
        let error = try #require(throws: IPDatabaseError.self) { try IPRangeTable(contentsOfFile: path.path) }
        #expect(error.line == 2)
        #expect(error.description.hasPrefix("ip database \(path.path) line 2: expected range_start"))

        let missing = try #require(throws: IPDatabaseError.self) {
            try IPRangeTable(contentsOfFile: path.path + ".missing")
        }
        #expect(missing.line == nil)
        #expect(missing.description.hasPrefix("ip database \(path.path).missing: cannot be read"))
    }

    static func table(_ lines: [String]) throws -> IPRangeTable {
        try IPRangeTable(tsv: Array(lines.joined(separator: "\n").utf8))
    }

    static func lookup(_ address: String, in table: IPRangeTable) -> IPInfo? {
        IPAddress(address).flatMap(table.lookup)
    }
}
