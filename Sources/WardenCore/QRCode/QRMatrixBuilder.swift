/// Lays out a QR Code symbol's modules: the function patterns (ISO/IEC 18004:2015 §6.3), the codewords in the
/// two-module-wide zigzag (§7.7.3), the data mask (§7.8) and the format and version information (§7.9, §7.10).
///
/// Coordinates are (row, column) with (0, 0) the top-left module; `true` is a dark module.
struct QRMatrixBuilder {
    let size: Int
    let version: Int
    private(set) var modules: [Bool]
    /// Whether each module belongs to a function pattern or the format / version information (and so is neither
    /// filled with codewords nor masked).
    private(set) var isFunction: [Bool]

    /// The generator polynomial of the format information's BCH(15, 5) code, x¹⁰ + x⁸ + x⁵ + x⁴ + x² + x + 1
    /// (ISO/IEC 18004:2015 §7.9.1 and Annex C).
    static let formatGenerator = 0b101_0011_0111
    /// The mask XORed onto the format information so that it is never all zero (ISO/IEC 18004:2015 §7.9.1).
    static let formatMask = 0b101_0100_0001_0010
    /// The generator polynomial of the version information's BCH(18, 6) code,
    /// x¹² + x¹¹ + x¹⁰ + x⁹ + x⁸ + x⁵ + x² + 1 (ISO/IEC 18004:2015 §7.10 and Annex D).
    static let versionGenerator = 0b1_1111_0010_0101
    /// The two error-correction level bits of level M in the format information (ISO/IEC 18004:2015 Table 12).
    static let levelMBits = 0b00

    init(version: Int) {
        self.version = version
        size = 17 + 4 * version
        modules = [Bool](repeating: false, count: size * size)
        isFunction = [Bool](repeating: false, count: size * size)
        drawFunctionPatterns()
    }

    subscript(row: Int, column: Int) -> Bool { modules[row * size + column] }

    /// The 15 format information bits for level M and `mask`: 5 data bits, 10 BCH check bits, XORed with
    /// 101010000010010 (ISO/IEC 18004:2015 §7.9.1).
    static func formatBits(mask: Int) -> Int {
        let data = levelMBits << 3 | mask
        var remainder = data
        for _ in 0..<10 { remainder = (remainder << 1) ^ ((remainder >> 9) * formatGenerator) }
        return (data << 10 | remainder) ^ formatMask
    }

    /// The 18 version information bits: 6 version bits and 12 BCH check bits (ISO/IEC 18004:2015 §7.10).
    static func versionBits(version: Int) -> Int {
        var remainder = version
        for _ in 0..<12 { remainder = (remainder << 1) ^ ((remainder >> 11) * versionGenerator) }
        return version << 12 | remainder
    }

    // MARK: Function patterns

    private mutating func set(_ row: Int, _ column: Int, _ dark: Bool) {
        modules[row * size + column] = dark
        isFunction[row * size + column] = true
    }

    private mutating func drawFunctionPatterns() {
        // Timing patterns: row 6 and column 6, dark on even coordinates (§6.3.5).
        for i in 0..<size {
            set(6, i, i % 2 == 0)
            set(i, 6, i % 2 == 0)
        }
        // Finder patterns with their separators (§6.3.3, §6.3.4).
        drawFinder(row: 3, column: 3)
        drawFinder(row: 3, column: size - 4)
        drawFinder(row: size - 4, column: 3)
        // Alignment patterns, except where they would overlap a finder pattern (§6.3.6, Annex E).
        let centres = QRCodeVersionTable(version: version).alignmentPatternCentres
        for (i, row) in centres.enumerated() {
            for (j, column) in centres.enumerated() {
                let last = centres.count - 1
                if (i == 0 && j == 0) || (i == 0 && j == last) || (i == last && j == 0) { continue }
                drawAlignment(row: row, column: column)
            }
        }
        // Reserve the format information areas (written once the mask is known) and set the dark module.
        drawFormat(mask: 0)
        // Version information for versions 7 and up (§7.10).
        if version >= 7 { drawVersion() }
    }

    /// A 7×7 finder pattern centred on (row, column) plus the light separator ring around it (§6.3.3, §6.3.4).
    private mutating func drawFinder(row: Int, column: Int) {
        for dr in -4...4 {
            for dc in -4...4 {
                let r = row + dr
                let c = column + dc
                guard (0..<size).contains(r), (0..<size).contains(c) else { continue }
                let distance = max(abs(dr), abs(dc))
                set(r, c, distance != 2 && distance != 4)
            }
        }
    }

    /// A 5×5 alignment pattern centred on (row, column) (§6.3.6).
    private mutating func drawAlignment(row: Int, column: Int) {
        for dr in -2...2 {
            for dc in -2...2 { set(row + dr, column + dc, max(abs(dr), abs(dc)) != 1) }
        }
    }

    /// Writes both copies of the format information for `mask` (ISO/IEC 18004:2015 §7.9.1, Figure 25) and the dark
    /// module at (4 × version + 9, 8).
    mutating func drawFormat(mask: Int) {
        let bits = Self.formatBits(mask: mask)
        func bit(_ i: Int) -> Bool { (bits >> i) & 1 == 1 }
        // First copy, around the top-left finder: bits 0–7 down column 8, bits 8–14 leftwards along row 8.
        for i in 0...5 { set(i, 8, bit(i)) }
        set(7, 8, bit(6))
        set(8, 8, bit(7))
        set(8, 7, bit(8))
        for i in 9..<15 { set(8, 14 - i, bit(i)) }
        // Second copy: bits 0–7 along row 8 from the right edge, bits 8–14 up column 8 to the bottom edge.
        for i in 0..<8 { set(8, size - 1 - i, bit(i)) }
        for i in 8..<15 { set(size - 15 + i, 8, bit(i)) }
        set(size - 8, 8, true)
    }

    /// Writes both copies of the version information (ISO/IEC 18004:2015 §7.10, Figure 27): a 6×3 block above the
    /// bottom-left finder and its transpose left of the top-right finder.
    private mutating func drawVersion() {
        let bits = Self.versionBits(version: version)
        for i in 0..<18 {
            let dark = (bits >> i) & 1 == 1
            let a = size - 11 + i % 3
            let b = i / 3
            set(b, a, dark)
            set(a, b, dark)
        }
    }

    // MARK: Codewords and mask

    /// Places the codewords' bits, most significant first, in two-module-wide columns from the bottom-right corner,
    /// alternately upwards and downwards, skipping function modules and the vertical timing pattern
    /// (ISO/IEC 18004:2015 §7.7.3, Figure 19). The remainder bits are left light (zero).
    mutating func placeCodewords(_ codewords: [UInt8]) {
        let totalBits = codewords.count * 8
        var index = 0
        var right = size - 1
        while right >= 1 {
            if right == 6 { right = 5 }
            let upward = (right + 1) & 2 == 0
            for step in 0..<size {
                let row = upward ? size - 1 - step : step
                for column in [right, right - 1] where !isFunction[row * size + column] {
                    if index < totalBits {
                        modules[row * size + column] = (codewords[index >> 3] >> (7 - UInt8(index & 7))) & 1 == 1
                        index += 1
                    }
                }
            }
            right -= 2
        }
        precondition(index == totalBits, "codewords do not fill the symbol")
    }

    /// XORs data mask `mask` onto every module outside the function patterns (ISO/IEC 18004:2015 §7.8.2, Table 10).
    /// Applying the same mask twice restores the original.
    mutating func applyMask(_ mask: Int) {
        for row in 0..<size {
            for column in 0..<size where !isFunction[row * size + column] {
                if Self.maskCondition(mask, row: row, column: column) { modules[row * size + column].toggle() }
            }
        }
    }

    /// The data mask pattern conditions of ISO/IEC 18004:2015 Table 10 (i = row, j = column).
    static func maskCondition(_ mask: Int, row i: Int, column j: Int) -> Bool {
        switch mask {
        case 0: (i + j) % 2 == 0
        case 1: i % 2 == 0
        case 2: j % 3 == 0
        case 3: (i + j) % 3 == 0
        case 4: (i / 2 + j / 3) % 2 == 0
        case 5: (i * j) % 2 + (i * j) % 3 == 0
        case 6: ((i * j) % 2 + (i * j) % 3) % 2 == 0
        case 7: ((i + j) % 2 + (i * j) % 3) % 2 == 0
        default: preconditionFailure("mask \(mask) is outside 0...7")
        }
    }
}
