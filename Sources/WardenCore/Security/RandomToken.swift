import Crypto
import Foundation

/// Generates the opaque artefacts of SPEC §3: codes, refresh tokens, `auth_req_id`s, client secrets.
public enum RandomToken {
    /// `bytes` random bytes (default 32 = 256 bits) from the system CSPRNG, base64url-encoded.
    public static func make(bytes: Int = 32) -> String {
        var generator = SystemRandomNumberGenerator()
        let data = Data((0..<bytes).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
        return Base64URL.encode(data)
    }

    /// An identifier with a type prefix, like `cred_…` or `rol_…`: 128 random bits in base62-ish alphabet.
    public static func identifier(prefix: String, length: Int = 22) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
        var generator = SystemRandomNumberGenerator()
        let body = String((0..<length).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] })
        return prefix + body
    }
}
