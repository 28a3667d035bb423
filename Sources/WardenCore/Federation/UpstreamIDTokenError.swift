public import WardenWire

/// Why an upstream identity provider's ID token was refused (SPEC §15 "Sign-in", OIDC Core §3.1.3.7).
///
/// The ``code`` is what the failed login's `error_description` names; the ``message`` is a fixed sentence about
/// that check, without any value taken from the token, so it is safe in the description and in the log's
/// `details.error.message`. Two errors are equal when their codes are.
public struct UpstreamIDTokenError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The check that failed: an open set of `RawRepresentable` values.
    public struct Code: OpenStringValue {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// No key that fits the `alg` verifies the signature (RFC 7515 §5.2).
        public static let signature: Code = "signature"
        /// The header's `alg` is not allowed for the connection (`id_token_signed_response_algs`), or is not the
        /// algorithm of the key the `kid` names.
        public static let alg: Code = "alg"
        /// `iss` is not the connection's issuer.
        public static let iss: Code = "iss"
        /// `aud` does not contain the connection's `client_id`.
        public static let aud: Code = "aud"
        /// `azp` is not the `client_id`, or is missing while `aud` has several values.
        public static let azp: Code = "azp"
        /// `nonce` is not the one sent with the authorization request.
        public static let nonce: Code = "nonce"
        /// `exp` is missing or past (beyond the clock skew).
        public static let exp: Code = "exp"
        /// `iat` is missing, or `iat` or `nbf` is in the future (beyond the clock skew).
        public static let iat: Code = "iat"
        /// No key of the JWKS has the header's `kid` (or, without `kid`, none fits the `alg`): the caller fetches
        /// the JWKS again once and retries (SPEC §15).
        public static let kid: Code = "kid"
        /// Not a compact JWS of at most 16 KiB with JSON-object header and claims and a string `sub`, or a header
        /// with `crit` (RFC 7515 §4.1.11: Warden understands no extension).
        public static let malformed: Code = "malformed"
    }

    /// The check that failed.
    public let code: Code
    /// A sentence about the failed check, safe to show and to log.
    public let message: String

    init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code): \(message)" }

    public static func == (lhs: UpstreamIDTokenError, rhs: UpstreamIDTokenError) -> Bool {
        lhs.code == rhs.code
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
    }
}
