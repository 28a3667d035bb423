/// Per-version constants for QR Code symbols of versions 1–20 at error-correction level M
/// (ISO/IEC 18004:2015 §7.5 and Table 9; alignment pattern positions from Annex E, Table E.1).
struct QRCodeVersionTable: Sendable {
    /// One run of identical error-correction blocks (a "group" in ISO/IEC 18004:2015 Table 9).
    struct BlockGroup: Sendable, Equatable {
        /// How many blocks the group has.
        let count: Int
        /// Data codewords in each block of the group (the *k* of the table's "(c, k, r)").
        let dataCodewords: Int
    }

    /// The symbol version, 1…20.
    let version: Int
    /// Error-correction codewords in each block (c − k in ISO/IEC 18004:2015 Table 9).
    let errorCorrectionCodewordsPerBlock: Int
    /// The block groups in order: group 1, then group 2 (which has one more data codeword per block) if any.
    let groups: [BlockGroup]

    /// The highest version this encoder produces.
    static let maximumVersion = 20

    /// ISO/IEC 18004:2015 Table 9, level M rows for versions 1–20:
    /// (error-correction codewords per block, group-1 blocks, group-1 data codewords, group-2 blocks, group-2 data codewords).
    private static let levelM: [(Int, Int, Int, Int, Int)] = [
        (10, 1, 16, 0, 0),  // 1: 26 codewords (c, k, r) = (26, 16, 4)
        (16, 1, 28, 0, 0),  // 2: 44 codewords (44, 28, 8)
        (26, 1, 44, 0, 0),  // 3: 70 codewords (70, 44, 13)
        (18, 2, 32, 0, 0),  // 4: 100 codewords 2 × (50, 32, 9)
        (24, 2, 43, 0, 0),  // 5: 134 codewords 2 × (67, 43, 12)
        (16, 4, 27, 0, 0),  // 6: 172 codewords 4 × (43, 27, 8)
        (18, 4, 31, 0, 0),  // 7: 196 codewords 4 × (49, 31, 9)
        (22, 2, 38, 2, 39),  // 8: 242 codewords 2 × (60, 38, 11), 2 × (61, 39, 11)
        (22, 3, 36, 2, 37),  // 9: 292 codewords 3 × (58, 36, 11), 2 × (59, 37, 11)
        (26, 4, 43, 1, 44),  // 10: 346 codewords 4 × (69, 43, 13), 1 × (70, 44, 13)
        (30, 1, 50, 4, 51),  // 11: 404 codewords 1 × (80, 50, 15), 4 × (81, 51, 15)
        (22, 6, 36, 2, 37),  // 12: 466 codewords 6 × (58, 36, 11), 2 × (59, 37, 11)
        (22, 8, 37, 1, 38),  // 13: 532 codewords 8 × (59, 37, 11), 1 × (60, 38, 11)
        (24, 4, 40, 5, 41),  // 14: 581 codewords 4 × (64, 40, 12), 5 × (65, 41, 12)
        (24, 5, 41, 5, 42),  // 15: 655 codewords 5 × (65, 41, 12), 5 × (66, 42, 12)
        (28, 7, 45, 3, 46),  // 16: 733 codewords 7 × (73, 45, 14), 3 × (74, 46, 14)
        (28, 10, 46, 1, 47),  // 17: 815 codewords 10 × (74, 46, 14), 1 × (75, 47, 14)
        (26, 9, 43, 4, 44),  // 18: 901 codewords 9 × (69, 43, 13), 4 × (70, 44, 13)
        (26, 3, 44, 11, 45),  // 19: 991 codewords 3 × (70, 44, 13), 11 × (71, 45, 13)
        (26, 3, 41, 13, 42),  // 20: 1085 codewords 3 × (67, 41, 13), 13 × (68, 42, 13)
    ]

    /// ISO/IEC 18004:2015 Annex E, Table E.1: row/column coordinates of the alignment pattern centres, versions 2–20.
    private static let alignmentCentres: [[Int]] = [
        [],  // 1
        [6, 18], [6, 22], [6, 26], [6, 30], [6, 34],  // 2–6
        [6, 22, 38], [6, 24, 42], [6, 26, 46], [6, 28, 50], [6, 30, 54], [6, 32, 58], [6, 34, 62],  // 7–13
        [6, 26, 46, 66], [6, 26, 48, 70], [6, 26, 50, 74], [6, 30, 54, 78], [6, 30, 56, 82],  // 14–18
        [6, 30, 58, 86], [6, 34, 62, 90],  // 19–20
    ]

    /// The table row for `version` (1…20).
    init(version: Int) {
        precondition((1...Self.maximumVersion).contains(version), "QR version \(version) is outside 1...20")
        let row = Self.levelM[version - 1]
        self.version = version
        errorCorrectionCodewordsPerBlock = row.0
        groups =
            [BlockGroup(count: row.1, dataCodewords: row.2)]
            + (row.3 > 0 ? [BlockGroup(count: row.3, dataCodewords: row.4)] : [])
    }

    /// Symbol width and height in modules: 17 + 4 × version (ISO/IEC 18004:2015 §5.3.1).
    var size: Int { 17 + 4 * version }

    /// Total data codewords (all blocks).
    var dataCodewords: Int { groups.reduce(0) { $0 + $1.count * $1.dataCodewords } }

    /// Total number of blocks.
    var blockCount: Int { groups.reduce(0) { $0 + $1.count } }

    /// Total codewords, data and error correction (ISO/IEC 18004:2015 Table 1, "number of data modules" ÷ 8).
    var totalCodewords: Int { dataCodewords + blockCount * errorCorrectionCodewordsPerBlock }

    /// Modules available for codewords and remainder bits: the symbol less every function pattern, the format and
    /// version information (ISO/IEC 18004:2015 Table 1, column "data modules except (C)").
    var dataModules: Int {
        var result = (16 * version + 128) * version + 64
        if version >= 2 {
            let alignmentPerSide = version / 7 + 2
            result -= (25 * alignmentPerSide - 10) * alignmentPerSide - 55
            if version >= 7 { result -= 36 }
        }
        return result
    }

    /// Remainder bits after the last codeword (ISO/IEC 18004:2015 §7.7.3 and Table 1): 0, 7, 3 or 4.
    var remainderBits: Int { dataModules - 8 * totalCodewords }

    /// Bits of the byte-mode character count indicator: 8 for versions 1–9, 16 for 10–26 (ISO/IEC 18004:2015 Table 3).
    var byteModeCountBits: Int { version <= 9 ? 8 : 16 }

    /// The most bytes this version holds in byte mode at level M: the data capacity less the 4-bit mode indicator and
    /// the character count indicator (ISO/IEC 18004:2015 Table 7).
    var byteCapacity: Int { (dataCodewords * 8 - 4 - byteModeCountBits) / 8 }

    /// Alignment pattern centre coordinates (ISO/IEC 18004:2015 Annex E, Table E.1); empty for version 1.
    var alignmentPatternCentres: [Int] { Self.alignmentCentres[version - 1] }
}
