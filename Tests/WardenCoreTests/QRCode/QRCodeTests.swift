import Testing
import WardenWire

@testable import WardenCore

@Suite("QR Code encoder (ISO/IEC 18004)")
struct QRCodeTests {
    // MARK: Tables

    /// ISO/IEC 18004:2015 Table 1: total codewords per version, and the remainder bits.
    @Test func codewordCountsMatchTable1() {
        let total = [26, 44, 70, 100, 134, 172, 196, 242, 292, 346, 404, 466, 532, 581, 655, 733, 815, 901, 991, 1085]
        for version in 1...20 {
            let table = QRCodeVersionTable(version: version)
            #expect(table.totalCodewords == total[version - 1], "version \(version)")
            let remainder = version == 1 ? 0 : version <= 6 ? 7 : version <= 13 ? 0 : 3
            #expect(table.remainderBits == remainder, "version \(version)")
        }
    }

    /// ISO/IEC 18004:2015 Table 7: byte-mode capacity at level M.
    @Test func byteCapacityMatchesTable7() {
        let capacity = [14, 26, 42, 62, 84, 106, 122, 152, 180, 213, 251, 287, 331, 362, 412, 450, 504, 560, 624, 666]
        for version in 1...20 {
            #expect(QRCodeVersionTable(version: version).byteCapacity == capacity[version - 1], "version \(version)")
        }
        #expect(QRCode.maximumBytes == 666)
    }

    @Test func smallestFittingVersionIsChosen() throws {
        for version in 1...20 {
            let capacity = QRCodeVersionTable(version: version).byteCapacity
            let full = try QRCode(encoding: [UInt8](repeating: 0x41, count: capacity))
            #expect(full.version == version)
            #expect(full.size == 17 + 4 * version)
            if version < 20 {
                #expect(try QRCode(encoding: [UInt8](repeating: 0x41, count: capacity + 1)).version == version + 1)
            }
        }
        #expect(try QRCode(encoding: "").version == 1)
    }

    @Test func tooLongThrows() {
        #expect(throws: QRCodeError.tooLong(bytes: 667, maximum: 666)) {
            try QRCode(encoding: [UInt8](repeating: 0x61, count: 667))
        }
        #expect(throws: QRCodeError.tooLong(bytes: 1000, maximum: 666)) {
            try QRCode(encoding: String(repeating: "é", count: 500))  // 2 UTF-8 bytes each
        }
    }

    // MARK: Reed–Solomon

    /// ISO/IEC 18004:2015 Annex A: the degree-10 generator polynomial is
    /// x¹⁰ + α²⁵¹x⁹ + α⁶⁷x⁸ + α⁴⁶x⁷ + α⁶¹x⁶ + α¹¹⁸x⁵ + α⁷⁰x⁴ + α⁶⁴x³ + α⁹⁴x² + α³²x + α⁴⁵.
    @Test func generatorPolynomialDegree10() {
        let exponents = QRReedSolomon.generator(degree: 10).map { QRGaloisField.log[Int($0)] }
        #expect(exponents == [251, 67, 46, 61, 118, 70, 64, 94, 32, 45])
    }

    /// The well-known 1-M "HELLO WORLD" codewords (alphanumeric data, but the error correction is mode-agnostic).
    @Test func errorCorrectionKnownAnswer() {
        let data: [UInt8] = [32, 91, 11, 120, 209, 114, 220, 77, 67, 64, 236, 17, 236, 17, 236, 17]
        #expect(QRReedSolomon.errorCorrection(for: data, degree: 10) == [196, 35, 39, 119, 235, 215, 231, 226, 93, 23])
    }

    // MARK: Format and version information

    /// ISO/IEC 18004:2015 Annex C, Table C.1: the level-M format information sequences for masks 0–7.
    @Test func formatInformationMatchesTableC1() {
        let expected = [
            0b101010000010010, 0b101000100100101, 0b101111001111100, 0b101101101001011,
            0b100010111111001, 0b100000011001110, 0b100111110010111, 0b100101010100000,
        ]
        #expect((0...7).map { QRMatrixBuilder.formatBits(mask: $0) } == expected)
    }

    /// ISO/IEC 18004:2015 Annex D, Table D.1 (first and last rows in range).
    @Test func versionInformationMatchesTableD1() {
        #expect(QRMatrixBuilder.versionBits(version: 7) == 0x07C94)
        #expect(QRMatrixBuilder.versionBits(version: 8) == 0x085BC)
        #expect(QRMatrixBuilder.versionBits(version: 20) == 0x149A6)
    }

    // MARK: Structure

    @Test(arguments: [1, 2, 6, 7, 11, 14, 20])
    func functionPatterns(version: Int) throws {
        let capacity = QRCodeVersionTable(version: version).byteCapacity
        let code = try QRCode(encoding: (0..<capacity).map { UInt8($0 % 251) })
        #expect(code.version == version)
        let n = code.size
        #expect(n == 17 + 4 * version)

        // Finder patterns and separators (§6.3.3, §6.3.4).
        for (top, left) in [(0, 0), (0, n - 7), (n - 7, 0)] {
            for r in -1...7 {
                for c in -1...7 {
                    let row = top + r
                    let column = left + c
                    guard (0..<n).contains(row), (0..<n).contains(column) else { continue }
                    let ring = max(abs(r - 3), abs(c - 3))
                    #expect(code[row, column] == (ring <= 1 || ring == 3), "finder module (\(row), \(column))")
                }
            }
        }
        // Timing patterns (§6.3.5).
        for i in 8..<(n - 8) {
            #expect(code[6, i] == (i % 2 == 0))
            #expect(code[i, 6] == (i % 2 == 0))
        }
        // Alignment patterns (§6.3.6, Annex E).
        let centres = QRCodeVersionTable(version: version).alignmentPatternCentres
        for row in centres {
            for column in centres {
                let nearFinder =
                    (row < 10 && column < 10) || (row < 10 && column > n - 10) || (row > n - 10 && column < 10)
                if nearFinder { continue }
                for dr in -2...2 {
                    for dc in -2...2 { #expect(code[row + dr, column + dc] == (max(abs(dr), abs(dc)) != 1)) }
                }
            }
        }
        // The dark module (§7.9.1).
        #expect(code[4 * version + 9, 8])

        // Format information: both copies decode to level M and the chosen mask (§7.9).
        let formats = Self.formatCopies(code)
        #expect(formats.0 == formats.1)
        let format = formats.0 ^ QRMatrixBuilder.formatMask
        #expect(format >> 13 == 0b00, "level M")
        #expect((format >> 10) & 0b111 == code.mask)
        #expect(QRMatrixBuilder.formatBits(mask: code.mask) == formats.0)

        // Version information for versions 7 and up (§7.10).
        if version >= 7 {
            var topRight = 0
            var bottomLeft = 0
            for i in 0..<18 {
                if code[i / 3, n - 11 + i % 3] { topRight |= 1 << i }
                if code[n - 11 + i % 3, i / 3] { bottomLeft |= 1 << i }
            }
            #expect(topRight == bottomLeft)
            #expect(topRight >> 12 == version)
            #expect(topRight == QRMatrixBuilder.versionBits(version: version))
        }
    }

    /// The two 15-bit format information copies, bit 14 first (ISO/IEC 18004:2015 Figure 25).
    static func formatCopies(_ code: QRCode) -> (Int, Int) {
        let n = code.size
        // Copy 1 from bit 14 to bit 0: row 8 columns 0–5, 7, 8, then column 8 rows 7, 5…0.
        let first: [(Int, Int)] =
            (0...5).map { (8, $0) } + [(8, 7), (8, 8), (7, 8)] + (0...5).reversed().map { ($0, 8) }
        // Copy 2 from bit 14 to bit 0: column 8 rows n−1 … n−7, then row 8 columns n−8 … n−1.
        let second: [(Int, Int)] =
            (0..<7).map { (n - 1 - $0, 8) } + (0..<8).map { (8, n - 8 + $0) }
        func value(_ positions: [(Int, Int)]) -> Int {
            positions.reduce(0) { $0 << 1 | (code[$1.0, $1.1] ? 1 : 0) }
        }
        return (value(first), value(second))
    }

    // MARK: Masking

    @Test func chosenMaskHasTheLowestPenalty() throws {
        for text in ["Warden", String(repeating: "otpauth://totp/x?secret=ABC&", count: 9)] {
            let chosen = try QRCode(encoding: text)
            var penalties: [Int] = []
            for mask in 0...7 {
                let code = try QRCode(encoding: Array(text.utf8), mask: mask)
                #expect(code.mask == mask)
                let modules = (0..<code.size).flatMap { row in (0..<code.size).map { code[row, $0] } }
                penalties.append(QRMaskPenalty.score(modules, size: code.size))
            }
            #expect(penalties[chosen.mask] == penalties.min())
            #expect(chosen == (try QRCode(encoding: Array(text.utf8), mask: chosen.mask)))
        }
    }

    @Test func penaltyRules() {
        // 5×5 all light: rule 1: 10 lines × 3; rule 2: 16 blocks × 3; rule 3: none; rule 4: 0 % dark → k = 9.
        let light = [Bool](repeating: false, count: 25)
        #expect(QRMaskPenalty.adjacentRuns(light, size: 5) == 30)
        #expect(QRMaskPenalty.blocks(light, size: 5) == 48)
        #expect(QRMaskPenalty.finderLike(light, size: 5) == 0)
        #expect(QRMaskPenalty.balance(light, size: 5) == 90)
        // A checkerboard: nothing but balance (13/25 = 52 % dark → 0).
        let checker = (0..<25).map { ($0 / 5 + $0 % 5) % 2 == 0 }
        #expect(QRMaskPenalty.score(checker, size: 5) == 0)
        // One row 1011101 followed by light (and light beyond the left edge): 2 finder-like patterns.
        var row = [Bool](repeating: false, count: 11 * 11)
        for (i, dark) in [true, false, true, true, true, false, true].enumerated() { row[5 * 11 + i] = dark }
        #expect(QRMaskPenalty.finderLike(row, size: 11) == 80)
    }

    // MARK: Reference matrices from a third-party encoder (python-qrcode)

    @Test(arguments: QRCodeReferenceFixtures.all)
    func matchesPythonQRCodeReference(_ fixture: QRCodeReferenceFixtures.Fixture) throws {
        let code = try QRCode(encoding: Self.input(fixture.input), mask: fixture.mask)
        #expect(code.version == fixture.version)
        #expect(code.mask == fixture.mask)
        let rows = fixture.rows.split(separator: "\n")
        try #require(rows.count == code.size)
        var mismatches: [String] = []
        for (r, line) in rows.enumerated() {
            for (c, character) in line.enumerated() where code[r, c] != (character == "1") {
                mismatches.append("(\(r), \(c))")
            }
        }
        #expect(
            mismatches.isEmpty, "\(mismatches.count) modules differ: \(mismatches.prefix(20).joined(separator: " "))")
    }

    /// The inputs of ``QRCodeReferenceFixtures`` (the same bytes the generator used).
    static func input(_ name: String) -> [UInt8] {
        switch name {
        case "short": Array("Warden".utf8)
        case "otpauth": Array(otpauthURI.utf8)
        case "version7Binary": (0..<110).map { UInt8(($0 * 7 + 3) % 256) }
        case "utf8": Array("Grüße aus Zürich — 東京 🔐".utf8)
        case "version20":
            (0..<650).map { Array("abcdefghijklmnopqrstuvwxyz0123456789".utf8)[$0 % 36] }
        default: []
        }
    }

    /// A 250-byte enrolment URI of the kind SPEC §7.1's page shows.
    static let otpauthURI =
        "otpauth://totp/Warden%20Example%20Corp:alice.smith%40example.com?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXPJBSWY3DP"
        + "&issuer=Warden%20Example%20Corp&algorithm=SHA1&digits=6&period=30"
        + "&image=https%3A%2F%2Fauth.example.com%2Fstatic%2Fbrand%2Flogo-192x192.png"

    // MARK: SVG

    @Test func svgShape() throws {
        let code = try QRCode(encoding: "Warden")
        let svg = code.svg(moduleSize: 5, title: "Scan <me> & \"enrol\"")
        #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"145\" height=\"145\""))
        #expect(svg.contains("viewBox=\"0 0 29 29\""))
        #expect(svg.contains("role=\"img\""))
        #expect(svg.contains("aria-label=\"Scan &lt;me&gt; &amp; &quot;enrol&quot;\""))
        #expect(svg.contains("<title>Scan &lt;me&gt; &amp; &quot;enrol&quot;</title>"))
        #expect(svg.contains("shape-rendering=\"crispEdges\""))
        #expect(svg.split(separator: "<path").count == 2)
        #expect(svg.hasSuffix("</svg>"))
        // The top-left finder's first row: 7 dark modules from (4, 4), inside the 4-module quiet zone.
        #expect(svg.contains("d=\"M4 4h7v1h-7z"))
        // Every dark module is drawn exactly once: the run widths add up to the dark modules.
        var dark = 0
        for row in 0..<code.size { for column in 0..<code.size where code[row, column] { dark += 1 } }
        let pathData = try #require(svg.split(separator: " d=\"").last?.split(separator: "\"").first)
        let widths = try pathData.split(separator: "z").map { piece -> Int in
            let h = try #require(piece.firstIndex(of: "h"))
            let v = try #require(piece.firstIndex(of: "v"))
            return try #require(Int(piece[piece.index(after: h)..<v]))
        }
        #expect(widths.reduce(0, +) == dark)
    }
}
