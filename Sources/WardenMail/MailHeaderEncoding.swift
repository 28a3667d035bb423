import Foundation

/// Header fields as RFC 5322 wants them on the wire: ASCII only, folded lines, no stray line breaks.
///
/// - Text that is not ASCII (or that contains `=?`, which a reader would try to decode) is written as
///   RFC 2047 encoded-words `=?UTF-8?B?…?=` (§2, §4.1): each at most 75 characters, each holding whole
///   characters (§5), every line that holds one at most 76 characters (§2), adjacent ones separated by folding
///   white space, which readers drop between encoded-words (§6.2).
/// - ASCII text is folded at its spaces to keep lines near 78 characters (RFC 5322 §2.1.1, §2.2.3); unfolding
///   gives the text back exactly.
/// - Control characters (CR and LF above all) become spaces, so a value can never add a header field.
enum MailHeaderEncoding {
    /// The line length RFC 5322 §2.1.1 asks for ("SHOULD be no more than 78 characters").
    static let preferredLineLength = 78
    /// RFC 2047 §2: "an 'encoded-word' may not be more than 75 characters long".
    static let maximumEncodedWordLength = 75
    /// RFC 2047 §2: a line holding an encoded-word may not be longer than 76 characters.
    static let maximumEncodedLineLength = 76

    /// `Name: value` (an unstructured field, RFC 5322 §3.2.5 / §3.6.5), folded, with its final CRLF.
    static func unstructured(name: String, value: String) -> String {
        let value = sanitized(value)
        let prefix = name + ": "
        if needsEncoding(value) {
            return prefix + encodedWords(value, firstLineUsed: prefix.count).joined(separator: "\r\n ") + "\r\n"
        }
        return fold(prefix: prefix, words: value.split(separator: " ", omittingEmptySubsequences: false)) + "\r\n"
    }

    /// `Name: mailbox, mailbox` (RFC 5322 §3.4 `address-list`; `name-addr` or `addr-spec`, §3.4), folded
    /// between words to keep every line within 76 characters (the RFC 2047 §2 limit, as display names may be
    /// encoded-words).
    static func addressList(name: String, _ addresses: [MailAddress]) -> String {
        var output = name + ":"
        var lineLength = output.count
        var lineHasToken = false
        func append(_ token: String) {
            if lineHasToken, lineLength + 1 + token.count > maximumEncodedLineLength {
                output += "\r\n"
                lineLength = 0
            }
            output += " " + token
            lineLength += 1 + token.count
            lineHasToken = true
        }
        for (index, address) in addresses.enumerated() {
            let separator = index < addresses.count - 1 ? "," : ""
            guard let displayName = address.displayName.map(sanitized) else {
                append(address.address + separator)
                continue
            }
            if needsEncoding(displayName) {
                // Start on a new line when too little room is left for a useful first encoded-word.
                if lineHasToken, lineLength + 1 + 20 > maximumEncodedLineLength {
                    output += "\r\n"
                    lineLength = 0
                    lineHasToken = false
                }
                for word in encodedWords(displayName, firstLineUsed: lineLength + 1) { append(word) }
            } else {
                append(phrase(displayName))
            }
            append("<" + address.address + ">" + separator)
        }
        return output + "\r\n"
    }

    /// An ASCII display name: atoms as they are, anything else as a quoted-string (RFC 5322 §3.2.4, §3.2.5).
    /// Non-ASCII names are encoded-words instead (RFC 2047 §5 (3)), see ``addressList(name:_:)``.
    static func phrase(_ text: String) -> String {
        let atext = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$%&'*+-/=?^_`{|}~ ")
        if text.allSatisfy(atext.contains), !text.hasPrefix(" "), !text.hasSuffix(" "), !text.contains("  ") {
            return text
        }
        var quoted = "\""
        for character in text {
            if character == "\"" || character == "\\" { quoted.append("\\") }
            quoted.append(character)
        }
        return quoted + "\""
    }

    /// `text` as encoded-words; the first goes on a line that already has `firstLineUsed` characters, the
    /// others each on a continuation line after one space.
    static func encodedWords(_ text: String, firstLineUsed: Int) -> [String] {
        let overhead = "=?UTF-8?B?".count + "?=".count
        // Octets whose base64 fits in `characters` (4 characters for every 3 octets).
        func capacity(_ characters: Int) -> Int { max(1, (characters - overhead) / 4 * 3) }
        var words: [String] = []
        var chunk: [UInt8] = []
        var limit = capacity(min(maximumEncodedWordLength, maximumEncodedLineLength - firstLineUsed))
        for character in text {
            let bytes = Array(String(character).utf8)
            if !chunk.isEmpty, chunk.count + bytes.count > limit {
                words.append("=?UTF-8?B?" + Data(chunk).base64EncodedString() + "?=")
                chunk = []
                limit = capacity(maximumEncodedWordLength)
            }
            chunk += bytes
        }
        if !chunk.isEmpty || words.isEmpty {
            words.append("=?UTF-8?B?" + Data(chunk).base64EncodedString() + "?=")
        }
        return words
    }

    /// Whether `text` must be written as encoded-words: it is not printable ASCII, it holds something a reader
    /// would decode as an encoded-word, or it has a word too long to fold (RFC 5322 §2.1.1's 998 limit).
    static func needsEncoding(_ text: String) -> Bool {
        !text.unicodeScalars.allSatisfy { $0.isASCII && ($0.value >= 32 || $0 == "\t") && $0.value != 127 }
            || text.contains("=?")
            || text.split(separator: " ").contains { $0.utf8.count > 900 }
    }

    /// Control characters (C0, DEL, C1, and the Unicode line and paragraph separators) become spaces.
    static func sanitized(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            let isControl =
                (scalar.value < 32 && scalar != "\t") || (0x7F...0x9F).contains(scalar.value)
                || scalar.value == 0x2028 || scalar.value == 0x2029
            scalars.append(isControl ? " " : scalar)
        }
        return String(scalars)
    }

    /// `prefix` then the words separated by single spaces, a line break put before a space whenever the next
    /// word would make the line longer than 78 characters (never before an empty word: no line may be only
    /// white space, RFC 5322 §3.2.2).
    private static func fold(prefix: String, words: [Substring]) -> String {
        var output = prefix
        var lineLength = prefix.count
        for (index, word) in words.enumerated() {
            if index == 0 {
                output += word
                lineLength += word.count
                continue
            }
            if lineLength + 1 + word.count > preferredLineLength, !word.isEmpty {
                output += "\r\n"
                lineLength = 0
            }
            output += " " + word
            lineLength += 1 + word.count
        }
        return output
    }
}
