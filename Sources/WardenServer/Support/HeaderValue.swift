/// Small, allocation-free readers of header values for the hot path (Foundation's string functions are
/// slow on Linux).
enum HeaderValue {
    /// The credentials after an authorization `scheme` (matched case-insensitively), trimmed of spaces.
    static func credentials(_ header: String?, scheme: String) -> Substring? {
        guard let header else { return nil }
        let prefix = scheme.utf8.count + 1
        guard header.utf8.count > prefix,
            header.utf8.prefix(scheme.utf8.count).elementsEqual(scheme.utf8, by: { lowercase($0) == lowercase($1) }),
            header.utf8.dropFirst(scheme.utf8.count).first == UInt8(ascii: " ")
        else { return nil }
        return trimmed(header.dropFirst(prefix))
    }

    /// The media type of a `Content-Type` value, lower-cased, without parameters.
    static func mediaType(_ header: String?) -> String {
        guard let header else { return "" }
        let type = header.split(separator: ";", maxSplits: 1).first ?? ""
        return String(decoding: trimmed(type).utf8.map(lowercase), as: UTF8.self)
    }

    static func trimmed(_ text: Substring) -> Substring {
        var text = text
        while let first = text.utf8.first, first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") {
            text = text.dropFirst()
        }
        while let last = text.utf8.last, last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") {
            text = text.dropLast()
        }
        return text
    }

    private static func lowercase(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
    }
}
