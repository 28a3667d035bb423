/// The data-masking evaluation of ISO/IEC 18004:2015 §7.8.3 and Table 11: a symbol's penalty score, the lower the
/// better, is the sum of four features, with weights N1 = 3, N2 = 3, N3 = 40, N4 = 10.
enum QRMaskPenalty {
    static let n1 = 3
    static let n2 = 3
    static let n3 = 40
    static let n4 = 10

    /// The total penalty of a `size` × `size` row-major module matrix (`true` = dark).
    static func score(_ modules: [Bool], size: Int) -> Int {
        adjacentRuns(modules, size: size) + blocks(modules, size: size) + finderLike(modules, size: size)
            + balance(modules, size: size)
    }

    /// Feature 1: each run of five or more same-coloured modules in a row or column scores N1 + (length − 5).
    static func adjacentRuns(_ modules: [Bool], size: Int) -> Int {
        var total = 0
        for line in 0..<size {
            for horizontal in [true, false] {
                var run = 0
                var previous = false
                for k in 0..<size {
                    let value = horizontal ? modules[line * size + k] : modules[k * size + line]
                    if k > 0 && value == previous {
                        run += 1
                    } else {
                        if run >= 5 { total += n1 + run - 5 }
                        run = 1
                        previous = value
                    }
                }
                if run >= 5 { total += n1 + run - 5 }
            }
        }
        return total
    }

    /// Feature 2: each 2 × 2 block of one colour (overlapping blocks counted separately) scores N2; a block of
    /// m × n modules thus scores N2 × (m − 1) × (n − 1).
    static func blocks(_ modules: [Bool], size: Int) -> Int {
        var total = 0
        for row in 0..<(size - 1) {
            for column in 0..<(size - 1) {
                let value = modules[row * size + column]
                if modules[row * size + column + 1] == value && modules[(row + 1) * size + column] == value
                    && modules[(row + 1) * size + column + 1] == value
                {
                    total += n2
                }
            }
        }
        return total
    }

    /// Feature 3: each 1:1:3:1:1 (dark:light:dark:light:dark) pattern in a row or column with four light modules on
    /// either side scores N3. Modules beyond the symbol's edge count as light (they are the quiet zone, §6.3.8); a
    /// pattern with light on both sides counts once for each side.
    static func finderLike(_ modules: [Bool], size: Int) -> Int {
        let core: [Bool] = [true, false, true, true, true, false, true]
        var total = 0
        for line in 0..<size {
            for horizontal in [true, false] {
                func at(_ k: Int) -> Bool {
                    guard (0..<size).contains(k) else { return false }
                    return horizontal ? modules[line * size + k] : modules[k * size + line]
                }
                for start in stride(from: 0, through: size - 7, by: 1) {
                    guard (0..<7).allSatisfy({ at(start + $0) == core[$0] }) else { continue }
                    if (1...4).allSatisfy({ !at(start - $0) }) { total += n3 }
                    if (1...4).allSatisfy({ !at(start + 6 + $0) }) { total += n3 }
                }
            }
        }
        return total
    }

    /// Feature 4: N4 for every full 5 % by which the proportion of dark modules departs from 50 % (45–55 % scores
    /// 0, 40–45 % or 55–60 % scores 10, and so on).
    static func balance(_ modules: [Bool], size: Int) -> Int {
        let total = size * size
        let dark = modules.reduce(0) { $0 + ($1 ? 1 : 0) }
        // The smallest k with |dark/total − 1/2| ≤ (k + 1) × 5 %, i.e. |20·dark − 10·total| ≤ (k + 1)·total.
        let k = (abs(dark * 20 - total * 10) + total - 1) / total - 1
        return max(0, k) * n4
    }
}
