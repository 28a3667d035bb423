/// Builds the final codeword sequence of a byte-mode, level-M symbol: the data bit stream
/// (ISO/IEC 18004:2015 §7.4), its division into blocks with Reed–Solomon error correction (§7.5) and the interleaving
/// of those blocks (§7.6).
enum QRCodewords {
    /// The data codewords for `bytes` in `table`'s version: mode indicator 0100 (byte mode, §7.4.5 and Table 2), the
    /// character count indicator (Table 3), the bytes, up to four terminator zeros (§7.4.9), zero bits to the next
    /// codeword boundary and the pad codewords 11101100 / 00010001 alternately (§7.4.10).
    static func dataCodewords(_ bytes: [UInt8], table: QRCodeVersionTable) -> [UInt8] {
        var writer = BitWriter()
        writer.append(0b0100, bits: 4)
        writer.append(bytes.count, bits: table.byteModeCountBits)
        for byte in bytes { writer.append(Int(byte), bits: 8) }
        let capacityBits = table.dataCodewords * 8
        precondition(writer.count <= capacityBits, "data overflows version \(table.version)")
        writer.append(0, bits: min(4, capacityBits - writer.count))
        writer.append(0, bits: (8 - writer.count % 8) % 8)
        var codewords = writer.bytes
        var pad: UInt8 = 0xEC
        while codewords.count < table.dataCodewords {
            codewords.append(pad)
            pad = pad == 0xEC ? 0x11 : 0xEC
        }
        return codewords
    }

    /// The final message: data codewords split into blocks (group 1 then group 2, Table 9), each block's error
    /// correction codewords computed, then the data codewords interleaved column by column across the blocks,
    /// followed by the error correction codewords interleaved the same way (ISO/IEC 18004:2015 §7.6, Figure 15).
    static func finalMessage(_ bytes: [UInt8], table: QRCodeVersionTable) -> [UInt8] {
        let data = dataCodewords(bytes, table: table)
        var dataBlocks: [[UInt8]] = []
        var offset = 0
        for group in table.groups {
            for _ in 0..<group.count {
                dataBlocks.append(Array(data[offset..<offset + group.dataCodewords]))
                offset += group.dataCodewords
            }
        }
        let ecBlocks = dataBlocks.map {
            QRReedSolomon.errorCorrection(for: $0, degree: table.errorCorrectionCodewordsPerBlock)
        }
        var message: [UInt8] = []
        message.reserveCapacity(table.totalCodewords)
        let longest = dataBlocks.map(\.count).max() ?? 0
        for i in 0..<longest {
            for block in dataBlocks where i < block.count { message.append(block[i]) }
        }
        for i in 0..<table.errorCorrectionCodewordsPerBlock {
            for block in ecBlocks { message.append(block[i]) }
        }
        return message
    }
}

/// An MSB-first bit accumulator.
private struct BitWriter {
    private(set) var bytes: [UInt8] = []
    private(set) var count = 0

    mutating func append(_ value: Int, bits: Int) {
        for shift in stride(from: bits - 1, through: 0, by: -1) {
            if count % 8 == 0 { bytes.append(0) }
            if (value >> shift) & 1 == 1 { bytes[count / 8] |= 0x80 >> UInt8(count % 8) }
            count += 1
        }
    }
}
