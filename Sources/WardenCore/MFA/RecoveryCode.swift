import WardenWire

/// Recovery codes (SPEC §12 `recovery-code`): 24 characters from `[A-Z0-9]` (about 124 bits), one per user, shown
/// once and stored as their SHA-256 (``SecretHash``: the code is random, so no salt or slow hash is needed).
public enum RecoveryCode {
    /// Characters in a code.
    public static let length = 24
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789".utf8)

    /// A new code from the CSPRNG, uniform over the alphabet (rejection sampling: 252 = 7 × 36).
    public static func generate() -> String {
        var characters: [UInt8] = []
        characters.reserveCapacity(length)
        while characters.count < length {
            for byte in RandomToken.bytes(length) where byte < 252 && characters.count < length {
                characters.append(alphabet[Int(byte % 36)])
            }
        }
        return String(decoding: characters, as: UTF8.self)
    }

    /// What a user typed, as it is hashed: upper case, without spaces and hyphens (which a user may add to read
    /// it back).
    public static func normalized(_ typed: String) -> String {
        String(typed.uppercased().unicodeScalars.filter { $0 != " " && $0 != "-" })
    }

    /// `code` in groups of four, as the page shows it (``normalized(_:)`` drops the spaces again).
    public static func grouped(_ code: String) -> String {
        var groups: [Substring] = []
        var rest = Substring(code)
        while !rest.isEmpty {
            groups.append(rest.prefix(4))
            rest = rest.dropFirst(4)
        }
        return groups.joined(separator: " ")
    }

    /// The stored form of `code`.
    public static func hash(_ code: String) -> String {
        SecretHash.sha256Hex(normalized(code))
    }
}
