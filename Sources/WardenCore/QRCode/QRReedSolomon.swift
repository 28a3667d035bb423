/// Arithmetic in GF(2⁸) with the QR Code field polynomial x⁸ + x⁴ + x³ + x² + 1 (0x11D), ISO/IEC 18004:2015 §7.5.2.
enum QRGaloisField {
    /// `exp[i]` = αⁱ for i in 0..<255 (α = 2), repeated once so that `exp[log a + log b]` needs no reduction.
    static let exp: [UInt8] = {
        var table = [UInt8](repeating: 0, count: 512)
        var value = 1
        for i in 0..<255 {
            table[i] = UInt8(value)
            value <<= 1
            if value & 0x100 != 0 { value ^= 0x11D }
        }
        for i in 255..<512 { table[i] = table[i - 255] }
        return table
    }()

    /// `log[a]` for a in 1...255 (`log[0]` is unused).
    static let log: [Int] = {
        var table = [Int](repeating: 0, count: 256)
        for i in 0..<255 { table[Int(exp[i])] = i }
        return table
    }()

    /// The product of `a` and `b` in the field.
    static func multiply(_ a: UInt8, _ b: UInt8) -> UInt8 {
        if a == 0 || b == 0 { return 0 }
        return exp[log[Int(a)] + log[Int(b)]]
    }
}

/// Reed–Solomon error-correction codewords for QR Code (ISO/IEC 18004:2015 §7.5.2 and Annex A).
enum QRReedSolomon {
    /// The generator polynomial of the given degree, g(x) = (x − α⁰)(x − α¹)…(x − αⁿ⁻¹) (ISO/IEC 18004:2015
    /// Annex A), as its coefficients from the highest power down, the leading 1 left out.
    static func generator(degree: Int) -> [UInt8] {
        precondition(degree >= 1 && degree <= 254)
        // Coefficients from the highest power down, including the leading 1.
        var poly: [UInt8] = [1]
        for i in 0..<degree {
            let root = QRGaloisField.exp[i]
            var next = [UInt8](repeating: 0, count: poly.count + 1)
            for (j, coefficient) in poly.enumerated() {
                next[j] ^= coefficient
                next[j + 1] ^= QRGaloisField.multiply(coefficient, root)
            }
            poly = next
        }
        return Array(poly.dropFirst())
    }

    /// The `degree` error-correction codewords of `data`: the remainder of data(x) · xⁿ divided by g(x).
    static func errorCorrection(for data: [UInt8], degree: Int) -> [UInt8] {
        let generator = generator(degree: degree)
        var remainder = [UInt8](repeating: 0, count: degree)
        for byte in data {
            let factor = byte ^ remainder[0]
            remainder.removeFirst()
            remainder.append(0)
            if factor != 0 {
                for i in 0..<degree { remainder[i] ^= QRGaloisField.multiply(generator[i], factor) }
            }
        }
        return remainder
    }
}
