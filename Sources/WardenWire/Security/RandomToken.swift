import Crypto
import Foundation

/// Generates the opaque artefacts of SPEC §3 (codes, refresh tokens, `auth_req_id`s, client secrets) and the
/// client side's random values (PKCE verifiers, `state`, `nonce`, JWT `jti`s).
public enum RandomToken {
    /// `count` bytes from BoringSSL's CSPRNG (seeded by the kernel), without a system call per request.
    public static func bytes(_ count: Int) -> [UInt8] {
        SymmetricKey(size: SymmetricKeySize(bitCount: count * 8)).withUnsafeBytes { Array($0) }
    }

    /// `bytes` random bytes (default 32 = 256 bits) from the system CSPRNG, base64url-encoded.
    public static func make(bytes count: Int = 32) -> String {
        Base64URL.encode(bytes(count))
    }

    /// An identifier with a type prefix, like `cred_…` or `rol_…`: `length` characters of a 62-letter
    /// alphabet (22 characters ≈ 131 bits).
    public static func identifier(prefix: String, length: Int = 22) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)
        var characters = [UInt8]()
        characters.reserveCapacity(length)
        while characters.count < length {
            // Rejection sampling keeps the distribution uniform: 248 = 4 × 62.
            for byte in bytes(length) where byte < 248 && characters.count < length {
                characters.append(alphabet[Int(byte % 62)])
            }
        }
        return prefix + String(decoding: characters, as: UTF8.self)
    }
}
