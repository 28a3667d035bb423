/// The 10,000 most common passwords that `password_dictionary` refuses (SPEC §15.1), shipped with Warden.
///
/// The list is the file `common-passwords.txt` beside this one (from the MIT-licensed zxcvbn package; its header
/// says which version and carries the license), one lower-cased password a line, `#` lines being comments. The
/// build embeds it in the binary (the `EmbedTextFiles` build-tool plugin writes it into a Swift string literal,
/// `text`): no resource bundle, one binary.
enum CommonPasswords {
    /// The listed passwords, lower-cased; built once, at first use.
    static let words: Set<String> = {
        var words = Set<String>(minimumCapacity: 10_000)
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            words.insert(String(line))
        }
        return words
    }()
}
