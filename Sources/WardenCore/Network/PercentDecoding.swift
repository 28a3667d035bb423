/// Percent-decoding (RFC 3986 §2.1) at the byte level: `%XX` is one octet and the result must be valid UTF-8.
/// With `plusIsSpace`, `+` is a space too, as in `application/x-www-form-urlencoded` (WHATWG URL §5.1). The one
/// decoder of form bodies, query strings, Basic credentials (RFC 6749 §2.3.1) and SMTP URLs; byte-level because
/// it runs on every token request.
public enum PercentDecoding {
    /// `component` decoded; `nil` for a malformed escape or bytes that are not UTF-8.
    public static func decode(_ component: Substring, plusIsSpace: Bool) -> String? {
        let utf8 = component.utf8
        guard utf8.contains(where: { $0 == UInt8(ascii: "%") || (plusIsSpace && $0 == UInt8(ascii: "+")) }) else {
            return String(component)
        }
        var bytes = [UInt8]()
        bytes.reserveCapacity(utf8.count)
        var iterator = utf8.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "+") where plusIsSpace:
                bytes.append(UInt8(ascii: " "))
            case UInt8(ascii: "%"):
                guard let high = iterator.next()?.hexDigitValue, let low = iterator.next()?.hexDigitValue else {
                    return nil
                }
                bytes.append(UInt8(high << 4 | low))
            default:
                bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }
}

extension UInt8 {
    /// The value of an ASCII hexadecimal digit (`0`–`9`, `a`–`f`, `A`–`F`).
    public var hexDigitValue: UInt32? {
        switch self {
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(self &- UInt8(ascii: "a") &+ 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(self &- UInt8(ascii: "A") &+ 10)
        default: decimalDigitValue
        }
    }
}
