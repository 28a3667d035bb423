import Crypto
import Foundation

/// SHA-256 digests and constant-time comparison: how Warden stores what it only needs to verify (client secrets,
/// opaque tokens, codes, SPEC §3), and the S256 PKCE challenge, `at_hash`, DPoP `ath` and JWK thumbprints that
/// the server and the SDKs compute alike.
///
/// Stored values are 128–256-bit random strings, so an unsalted SHA-256 is a sufficient one-way function;
/// user passwords, which are low-entropy, use bcrypt instead.
public enum SecretHash {
    /// Lower-case hex SHA-256 of the UTF-8 bytes of `value`.
    public static func sha256Hex(_ value: String) -> String {
        let digest = SHA256.hash(data: Data(value.utf8))
        return hex(digest)
    }

    /// Base64url (no padding) SHA-256 of the UTF-8 bytes of `value` (PKCE S256, `at_hash`, DPoP `ath`).
    public static func sha256Base64URL(_ value: String) -> String {
        Base64URL.encode(Data(SHA256.hash(data: Data(value.utf8))))
    }

    /// Whether `candidate` hashes to `storedHex`, compared in constant time.
    public static func verify(_ candidate: String, againstHex storedHex: String) -> Bool {
        constantTimeEquals(sha256Hex(candidate), storedHex)
    }

    /// Compares two strings in time that depends only on their lengths.
    public static func constantTimeEquals(_ lhs: String, _ rhs: String) -> Bool {
        let left = Array(lhs.utf8)
        let right = Array(rhs.utf8)
        guard left.count == right.count else { return false }
        var difference: UInt8 = 0
        for index in left.indices {
            difference |= left[index] ^ right[index]
        }
        return difference == 0
    }

    /// Lower-case hex of `bytes`.
    public static func hex(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(64)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
