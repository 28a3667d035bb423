/// Text from a client's request made safe to show a person (SPEC §11): binding messages, authorization
/// details, client names — on pages, in e-mails, in push payloads and on the terminal alike.
///
/// Control characters (C0, DEL, C1) become a space, runs of them one space, so a value cannot start a line of
/// its own ("ok\n\nApprove at: http://evil.example/") and stays inside its labelled line; the bidirectional
/// embedding, override and isolate characters (U+202A–U+202E, U+2066–U+2069) are removed, so a value cannot
/// reorder what follows it ("U+202E" turning `exe.pdf` into `fdp.exe`). Other characters, emoji joiners
/// included, are kept.
public enum DisplayText {
    /// `text` cleaned as above, with surrounding white space trimmed.
    public static func clean(_ text: String) -> String {
        var result = String.UnicodeScalarView()
        var pendingSpace = false
        for scalar in text.unicodeScalars {
            if isBidiControl(scalar) { continue }
            if isControl(scalar) || scalar == " " {
                pendingSpace = !result.isEmpty
                continue
            }
            if pendingSpace {
                result.append(" ")
                pendingSpace = false
            }
            result.append(scalar)
        }
        return String(result)
    }

    /// C0 (U+0000–U+001F), DEL (U+007F) and C1 (U+0080–U+009F).
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// U+202A–U+202E (embeddings, overrides, pop) and U+2066–U+2069 (isolates).
    static func isBidiControl(_ scalar: Unicode.Scalar) -> Bool {
        (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
    }
}
