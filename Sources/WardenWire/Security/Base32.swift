/// Base32 encoding (RFC 4648 §6), the alphabet of TOTP secrets in `otpauth://` URIs (SPEC §7.1); without padding.
public enum Base32 {
    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".utf8)

    /// The unpadded Base32 text of `bytes`.
    public static func encode(_ bytes: some Sequence<UInt8>) -> String {
        var out: [UInt8] = []
        var buffer: UInt32 = 0
        var bits = 0
        for byte in bytes {
            buffer = buffer << 8 | UInt32(byte)
            bits += 8
            while bits >= 5 {
                bits -= 5
                out.append(alphabet[Int((buffer >> UInt32(bits)) & 31)])
            }
        }
        if bits > 0 { out.append(alphabet[Int((buffer << UInt32(5 - bits)) & 31)]) }
        return String(decoding: out, as: UTF8.self)
    }

    /// The bytes of Base32 `text`, or `nil` when it holds a character outside the alphabet. Lower case, spaces and
    /// `=` padding are accepted, as authenticator apps show and accept secrets that way; leftover bits
    /// of an incomplete last byte are dropped (RFC 4648 §6).
    public static func decode(_ text: String) -> [UInt8]? {
        var out: [UInt8] = []
        var buffer: UInt32 = 0
        var bits = 0
        for character in text.utf8 where character != UInt8(ascii: " ") && character != UInt8(ascii: "=") {
            let upper = (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(character) ? character - 32 : character
            guard let value = alphabet.firstIndex(of: upper) else { return nil }
            buffer = (buffer << 5 | UInt32(value)) & 0xFFFF
            bits += 5
            if bits >= 8 {
                bits -= 8
                out.append(UInt8((buffer >> UInt32(bits)) & 0xFF))
            }
        }
        return out
    }
}
