/// A QR Code symbol (ISO/IEC 18004:2015) holding bytes in byte mode (§7.4.5) at error-correction level M (§7.5.1),
/// for versions 1–20.
///
/// The smallest version that holds the data is chosen, and of the eight data masks the one with the lowest penalty
/// score (§7.8.3). The symbol carries no ECI header, so decoders see the raw bytes; the `String` initializer
/// encodes UTF-8, which is what `otpauth://` URIs and scanning apps expect.
public struct QRCode: Sendable, Equatable {
    /// The symbol version, 1…20 (ISO/IEC 18004:2015 §5.3.1).
    public let version: Int
    /// Width and height in modules, without the quiet zone: 17 + 4 × version.
    public let size: Int
    /// The data mask pattern reference, 0…7 (ISO/IEC 18004:2015 §7.8.2, Table 10).
    public let mask: Int
    /// Row-major modules, `true` = dark.
    private let modules: [Bool]

    /// Whether the module at (`row`, `column`) is dark; (0, 0) is the top-left module inside the quiet zone.
    public subscript(row: Int, column: Int) -> Bool {
        precondition((0..<size).contains(row) && (0..<size).contains(column), "module out of range")
        return modules[row * size + column]
    }

    /// Encodes `bytes` in byte mode at level M.
    /// - Throws: ``QRCodeError/tooLong(bytes:maximum:)`` when they exceed the 666 bytes that version 20 holds.
    public init(encoding bytes: some Collection<UInt8>) throws(QRCodeError) {
        try self.init(encoding: bytes, mask: nil)
    }

    /// Encodes the UTF-8 bytes of `text` in byte mode at level M.
    /// - Throws: ``QRCodeError/tooLong(bytes:maximum:)`` when they exceed the 666 bytes that version 20 holds.
    public init(encoding text: String) throws(QRCodeError) {
        try self.init(encoding: Array(text.utf8), mask: nil)
    }

    /// Encodes `bytes`, with the data mask `mask` if given (for comparison with other encoders in tests), or else the
    /// one with the lowest penalty score.
    init(encoding bytes: some Collection<UInt8>, mask forcedMask: Int?) throws(QRCodeError) {
        let data = Array(bytes)
        guard
            let version = (1...QRCodeVersionTable.maximumVersion).first(where: {
                data.count <= QRCodeVersionTable(version: $0).byteCapacity
            })
        else {
            throw .tooLong(bytes: data.count, maximum: Self.maximumBytes)
        }
        let table = QRCodeVersionTable(version: version)
        var builder = QRMatrixBuilder(version: version)
        builder.placeCodewords(QRCodewords.finalMessage(data, table: table))

        let chosen: Int
        if let forcedMask {
            precondition((0...7).contains(forcedMask), "mask \(forcedMask) is outside 0...7")
            chosen = forcedMask
        } else {
            var best = (mask: 0, penalty: Int.max)
            for candidate in 0...7 {
                builder.applyMask(candidate)
                builder.drawFormat(mask: candidate)
                let penalty = QRMaskPenalty.score(builder.modules, size: builder.size)
                if penalty < best.penalty { best = (candidate, penalty) }
                builder.applyMask(candidate)  // undo
            }
            chosen = best.mask
        }
        builder.applyMask(chosen)
        builder.drawFormat(mask: chosen)

        self.version = version
        self.size = builder.size
        self.mask = chosen
        self.modules = builder.modules
    }

    /// The most bytes a symbol holds: version 20 at level M in byte mode (ISO/IEC 18004:2015 Table 7).
    public static let maximumBytes = QRCodeVersionTable(version: QRCodeVersionTable.maximumVersion).byteCapacity
}

/// Why a ``QRCode`` could not be made.
public enum QRCodeError: Error, Sendable, Equatable {
    /// The data is longer than a version-20, level-M symbol holds in byte mode.
    case tooLong(bytes: Int, maximum: Int)
}
