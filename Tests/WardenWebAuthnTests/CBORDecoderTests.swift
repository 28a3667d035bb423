import Testing
import WardenWebAuthn

/// The bounded CBOR subset (RFC 8949; SPEC §17: depth ≤ 16, ≤ 64 KiB): what it reads, and one test per rule it
/// enforces.
@Suite struct CBORDecoderTests {
    func decode(_ hexBytes: String) throws(CBORError) -> CBORValue {
        try CBORDecoder.decode(hex(hexBytes))
    }

    func expect(_ error: CBORError, _ hexBytes: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(throws: error, sourceLocation: sourceLocation) { try decode(hexBytes) }
    }

    /// RFC 8949 Appendix A examples within the subset.
    @Test func readsTheSubset() throws {
        #expect(try decode("00") == .integer(0))
        #expect(try decode("17") == .integer(23))
        #expect(try decode("1818") == .integer(24))
        #expect(try decode("1903e8") == .integer(1000))
        #expect(try decode("1a000f4240") == .integer(1_000_000))
        #expect(try decode("1b000000e8d4a51000") == .integer(1_000_000_000_000))
        #expect(try decode("1b7fffffffffffffff") == .integer(.max))
        #expect(try decode("20") == .integer(-1))
        #expect(try decode("3863") == .integer(-100))
        #expect(try decode("390100") == .integer(-257))
        #expect(try decode("3b7fffffffffffffff") == .integer(.min))
        #expect(try decode("40") == .bytes([]))
        #expect(try decode("4401020304") == .bytes([1, 2, 3, 4]))
        #expect(try decode("6449455446") == .text("IETF"))
        #expect(try decode("62c3bc") == .text("ü"))
        #expect(try decode("83010203") == .array([.integer(1), .integer(2), .integer(3)]))
        #expect(try decode("a201020304") == .map([1: .integer(2), 3: .integer(4)]))
        #expect(try decode("a26161016162820203") == .map(["a": .integer(1), "b": .array([.integer(2), .integer(3)])]))
        #expect(try decode("f4") == .bool(false))
        #expect(try decode("f5") == .bool(true))
        #expect(try decode("f6") == .null)
    }

    @Test func prefixDecodingReportsWhereTheItemEnds() throws {
        let (value, end) = try CBORDecoder.decodePrefix(hex("ff01a1010200"), from: 1)
        #expect(value == .integer(1))
        #expect(end == 2)
        #expect(try CBORDecoder.decodePrefix(hex("ff01a1010200"), from: 2).end == 5)
    }

    @Test func refusesTrailingBytes() {
        expect(.trailingBytes, "0000")
        expect(.trailingBytes, "a0ff")
    }

    @Test func refusesTruncatedItems() {
        expect(.truncated, "")
        expect(.truncated, "18")
        expect(.truncated, "1a0001")
        expect(.truncated, "44010203")
        expect(.truncated, "830102")
        expect(.truncated, "a10182")
    }

    @Test func refusesCountsBeyondTheInputBeforeReadingThem() {
        expect(.truncated, "9bffffffffffffffff")
        expect(.truncated, "bb7fffffffffffffff")
        expect(.truncated, "5bffffffffffffffff")
        expect(.truncated, "a30102")  // three entries need at least six bytes
    }

    @Test func refusesIndefiniteLengths() {
        expect(.indefiniteLength, "5f42010243030405ff")
        expect(.indefiniteLength, "7f657374726561646d696e67ff")
        expect(.indefiniteLength, "9f018202039f0405ffff")
        expect(.indefiniteLength, "bf61610161629f0203ffff")
        expect(.indefiniteLength, "ff")
    }

    @Test func refusesArgumentsNotInTheirShortestForm() {
        expect(.nonCanonical, "1817")
        expect(.nonCanonical, "1900ff")
        expect(.nonCanonical, "1a0000ffff")
        expect(.nonCanonical, "1b00000000ffffffff")
        expect(.nonCanonical, "380a")
        expect(.nonCanonical, "5801ff")
        expect(.nonCanonical, "790001" + "61")
        expect(.nonCanonical, "9800")
        expect(.nonCanonical, "b90000")
    }

    @Test func refusesDuplicateMapKeys() {
        expect(.duplicateKey, "a201020103")
        expect(.duplicateKey, "a2616101616102")
    }

    @Test func refusesTags() {
        expect(.tag, "c074323031332d30332d32315432303a30343a30305a")
        expect(.tag, "d818456449455446")
        expect(.tag, "a101c001")
    }

    @Test func refusesItemsOutsideTheSubset() {
        expect(.unsupported, "f90000")  // half-precision float
        expect(.unsupported, "fa47c35000")  // single
        expect(.unsupported, "fb3ff199999999999a")  // double
        expect(.unsupported, "f7")  // undefined
        expect(.unsupported, "f0")  // simple(16)
        expect(.unsupported, "f8ff")  // simple(255)
        expect(.unsupported, "1c")  // reserved additional information
        expect(.unsupported, "1bffffffffffffffff")  // beyond Int64
        expect(.unsupported, "3b8000000000000000")  // below Int64
        expect(.unsupported, "a1400102")  // a byte string key
        expect(.unsupported, "a1f501")  // a boolean key
    }

    @Test func refusesInvalidUTF8() {
        expect(.invalidUTF8, "62c328")
        expect(.invalidUTF8, "61ff")
        expect(.invalidUTF8, "63eda080")  // a UTF-16 surrogate
    }

    @Test func nestsSixteenDeepButNotSeventeen() throws {
        let sixteen = String(repeating: "81", count: 15) + "80"
        #expect(throws: Never.self) { try decode(sixteen) }
        expect(.tooDeep, "81" + sixteen)
        expect(.tooDeep, String(repeating: "a101", count: 17) + "00")
        #expect(throws: Never.self) { try decode(String(repeating: "a101", count: 16) + "00") }
    }

    @Test func readsAt64KiBButNotBeyond() throws {
        let limit = CBORDecoder.maximumInputSize
        let bytes =
            [0x59] + CBOREncoder.bigEndian(UInt64(limit - 3), width: 2) + [UInt8](repeating: 7, count: limit - 3)
        #expect(try CBORDecoder.decode(bytes).bytes?.count == limit - 3)
        #expect(throws: CBORError.tooLarge) { try CBORDecoder.decode(bytes + [0]) }
    }

    /// The worst inputs within the bounds: 64 KiB of nested array heads, and of one-byte map entries.
    @Test func worstCaseInputsStayCheap() throws {
        let clock = ContinuousClock()
        let nested = [UInt8](repeating: 0x81, count: CBORDecoder.maximumInputSize)
        let entries = 0x3FFF
        let map: [UInt8] =
            [0xB9, 0x3F, 0xFF] + (0..<entries).flatMap { CBOREncoder.encode(.integer(Int64($0))) + [0xF6] }
        var decoded: CBORValue?
        let elapsed = clock.measure {
            #expect(throws: CBORError.tooDeep) { try CBORDecoder.decode(nested) }
            decoded = try? CBORDecoder.decode(map)
        }
        #expect(decoded?.map?.count == entries)
        #expect(elapsed < .seconds(2))
    }
}
