/// Decoding of `application/x-www-form-urlencoded` components (WHATWG URL §5.1): `+` is a space, `%XX` a
/// byte, and the result must be valid UTF-8. Byte-level, because it runs on every token request.
enum FormDecoding {
    static func decode(_ component: Substring) -> String? {
        let utf8 = component.utf8
        guard utf8.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") }) else {
            return String(component)
        }
        var bytes = [UInt8]()
        bytes.reserveCapacity(utf8.count)
        var index = utf8.startIndex
        while index != utf8.endIndex {
            let byte = utf8[index]
            switch byte {
            case UInt8(ascii: "+"):
                bytes.append(UInt8(ascii: " "))
            case UInt8(ascii: "%"):
                let high = utf8.index(after: index)
                guard high != utf8.endIndex else { return nil }
                let low = utf8.index(after: high)
                guard low != utf8.endIndex, let h = hexValue(utf8[high]), let l = hexValue(utf8[low]) else {
                    return nil
                }
                bytes.append(h << 4 | l)
                index = low
            default:
                bytes.append(byte)
            }
            index = utf8.index(after: index)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
