/// PKCE (RFC 7636): the S256 challenge and the verifier syntax. `plain` is not supported (SPEC §5).
public enum CodeChallenge {
    /// The only method Warden accepts.
    public static let s256 = "S256"

    /// Whether `challenge` is a well-formed S256 challenge: 43 base64url characters (RFC 7636 §4.2).
    public static func isWellFormed(challenge: String) -> Bool {
        challenge.utf8.count == 43 && challenge.utf8.allSatisfy(isBase64URL)
    }

    /// Whether `verifier` has 43–128 characters of `[A-Za-z0-9-._~]` (RFC 7636 §4.1).
    public static func isWellFormed(verifier: String) -> Bool {
        (43...128).contains(verifier.utf8.count)
            && verifier.utf8.allSatisfy { isBase64URL($0) || $0 == 0x2E || $0 == 0x7E }
    }

    /// Whether `verifier` matches `challenge` under S256 (RFC 7636 §4.6), compared in constant time.
    public static func verify(verifier: String, challenge: String) -> Bool {
        SecretHash.constantTimeEquals(SecretHash.sha256Base64URL(verifier), challenge)
    }

    private static func isBase64URL(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
            true
        default: false
        }
    }
}
