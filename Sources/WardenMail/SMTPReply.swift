/// One SMTP reply (RFC 5321 §4.2): a three-digit code and one or more lines of text.
///
/// A multi-line reply repeats the code on every line, with `-` after it on all lines but the last
/// (`250-first`, `250-second`, `250 last`; §4.2.1). The EHLO reply lists the service extensions after its first
/// line, one keyword a line with its parameters (§4.1.1.1), such as `STARTTLS` (RFC 3207 §4) and
/// `AUTH PLAIN LOGIN` (RFC 4954 §3).
struct SMTPReply: Sendable, Hashable {
    /// Why bytes from the server are not an SMTP reply.
    struct MalformedReply: Error, CustomStringConvertible {
        let description: String
    }

    /// Builds replies line by line (the lines without their CRLF).
    struct Assembler {
        /// More lines than any sane server sends in one reply.
        static let maximumLines = 256
        private var code: Int?
        private var lines: [String] = []

        /// No partial reply waiting for its last line.
        var isEmpty: Bool { code == nil }

        /// Takes the next line; returns the reply it completes, or `nil` while more lines are due.
        mutating func append(_ line: String) throws -> SMTPReply? {
            let bytes = Array(line.utf8)
            guard bytes.count >= 3, bytes[0..<3].allSatisfy({ (48...57).contains($0) }),
                (50...53).contains(bytes[0]), bytes.count == 3 || bytes[3] == 32 || bytes[3] == 45
            else {
                throw MalformedReply(description: "malformed reply line '\(line.prefix(100))' (RFC 5321 §4.2)")
            }
            let code = Int(String(decoding: bytes[0..<3], as: UTF8.self))!
            if let expected = self.code, expected != code {
                throw MalformedReply(description: "reply code \(code) inside a multi-line \(expected) reply")
            }
            self.code = code
            lines.append(bytes.count > 4 ? String(decoding: bytes[4...], as: UTF8.self) : "")
            guard lines.count <= Self.maximumLines else {
                throw MalformedReply(description: "reply of more than \(Self.maximumLines) lines")
            }
            guard bytes.count == 3 || bytes[3] == 32 else { return nil }
            defer {
                self.code = nil
                self.lines = []
            }
            return SMTPReply(code: code, lines: lines)
        }
    }

    let code: Int
    /// The text of each line, after the code and its separator.
    let lines: [String]

    /// The text of all lines joined by spaces (for errors).
    var text: String { lines.joined(separator: " ") }

    /// Whether the EHLO reply (`self`) lists `keyword`, and its parameters (upper-cased). The old
    /// `AUTH=PLAIN LOGIN` form some servers add counts as `AUTH`.
    func extensionParameters(_ keyword: String) -> [String]? {
        let keyword = keyword.uppercased()
        var found: [String]?
        for line in lines.dropFirst() {
            var words = line.uppercased().split(separator: " ").map(String.init)
            guard !words.isEmpty else { continue }
            if words[0].hasPrefix(keyword + "=") {
                words = [keyword, String(words[0].dropFirst(keyword.count + 1))] + words.dropFirst()
            }
            if words[0] == keyword {
                found = (found ?? []) + words.dropFirst().filter { !$0.isEmpty }
            }
        }
        return found
    }
}
