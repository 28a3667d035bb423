/// Why a JWS could not be made or checked.
public enum JWSError: Error, Sendable, Equatable {
    /// The token is not three base64url parts whose first two are JSON objects (RFC 7515 §7.1).
    case malformed
    /// The key is not one Warden can sign or verify with (an unsupported type, or RSA under 2048 bits).
    case malformedKey
}
