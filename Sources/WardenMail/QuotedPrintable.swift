/// The quoted-printable content transfer encoding of RFC 2045 §6.7, for UTF-8 text bodies.
///
/// - Line breaks of the text (CRLF, LF or a lone CR) become CRLF (§6.7 (4): they are hard line breaks).
/// - Octets 33–60 and 62–126 stay as they are (§6.7 (2)); `=`, control characters and every octet of a
///   non-ASCII character become `=XX` with upper-case hex digits (§6.7 (1)).
/// - Spaces and tabs stay, except at the end of a line, where they become `=20` / `=09` so that a transport
///   that strips trailing white space cannot change the text (§6.7 (3)).
/// - Encoded lines have at most 76 characters; a longer line is cut with a soft line break (`=` then CRLF),
///   never inside an `=XX` escape (§6.7 (5)).
///
/// A line that starts with `.` stays as it is: dot-stuffing is SMTP's business (RFC 5321 §4.5.2).
enum QuotedPrintable {
    /// The longest encoded line, the soft-break `=` included (RFC 2045 §6.7 (5)).
    static let maximumLineLength = 76

    /// `text` encoded; lines are joined with CRLF, and the result ends with CRLF only when `text` ends with a
    /// line break.
    static func encode(_ text: String) -> String {
        lines(of: Array(text.utf8)).map(encodeLine).joined(separator: "\r\n")
    }

    /// The lines of `bytes` without their line breaks; a final line break gives a final empty line.
    private static func lines(of bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        var result: [ArraySlice<UInt8>] = []
        var start = 0
        var index = 0
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\r"):
                result.append(bytes[start..<index])
                index += (index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "\n")) ? 2 : 1
                start = index
            case UInt8(ascii: "\n"):
                result.append(bytes[start..<index])
                index += 1
                start = index
            default:
                index += 1
            }
        }
        result.append(bytes[start..<bytes.count])
        return result
    }

    /// One line of text as one or more encoded lines joined by soft line breaks.
    private static func encodeLine(_ line: ArraySlice<UInt8>) -> String {
        var output = ""
        var lineLength = 0
        for index in line.indices {
            let byte = line[index]
            let isLast = index == line.index(before: line.endIndex)
            let token: String
            switch byte {
            case 33...60, 62...126:
                token = String(UnicodeScalar(byte))
            case UInt8(ascii: " "), UInt8(ascii: "\t"):
                token = isLast ? escape(byte) : String(UnicodeScalar(byte))
            default:
                token = escape(byte)
            }
            // Room for the token, and for the soft break's `=` unless nothing follows on this line.
            let limit = isLast ? maximumLineLength : maximumLineLength - 1
            if lineLength + token.utf8.count > limit {
                output += "=\r\n"
                lineLength = 0
            }
            output += token
            lineLength += token.utf8.count
        }
        return output
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    private static func escape(_ byte: UInt8) -> String {
        String(decoding: [UInt8(ascii: "="), hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0x0F)]], as: UTF8.self)
    }
}
