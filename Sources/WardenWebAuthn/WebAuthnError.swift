/// Why a registration or an authentication ceremony was refused (SPEC §17, WebAuthn Level 3 §7.1 and §7.2).
///
/// The ``code`` names the check that failed with the words SPEC §17 gives the failed login's
/// `details.error.message` (`type`, `challenge`, `origin`, `rpIdHash`, `user presence`, `user verification`,
/// `algorithm`, `attestation`, `signature`, `sign count`, `credential`), plus ``Code/backupState`` and
/// ``Code/malformed`` for the checks that list does not name. The ``message`` is a fixed sentence about the check,
/// without any value taken from the input, so it is safe to show and to log. Two errors are equal when their codes
/// are.
public struct WebAuthnError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The check that failed: an open set of `RawRepresentable` values.
    public struct Code: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public init(stringLiteral value: String) { self.rawValue = value }
        public var description: String { rawValue }

        /// `clientDataJSON.type` is not `webauthn.create` (§7.1) or `webauthn.get` (§7.2).
        public static let type: Code = "type"
        /// `clientDataJSON.challenge` is not the base64url encoding of the challenge the ceremony sent (§7.1, §7.2).
        public static let challenge: Code = "challenge"
        /// `clientDataJSON.origin` is not an allowed origin, or `crossOrigin` is true, or `topOrigin` is present
        /// (§7.1, §7.2, §5.8.1): Warden's pages are never framed by another origin.
        public static let origin: Code = "origin"
        /// The authenticator data's `rpIdHash` is not SHA-256 of the RP ID (§7.1, §7.2).
        public static let rpIdHash: Code = "rpIdHash"
        /// The UP flag is clear (§7.1, §7.2).
        public static let userPresence: Code = "user presence"
        /// The UV flag is clear where the ceremony requires user verification (§7.1, §7.2).
        public static let userVerification: Code = "user verification"
        /// BS is set without BE (§6.1.3, §7.1, §7.2), or a backup-eligible credential reports BE clear
        /// (§7.2; SPEC §17 lets BE go from 0 to 1 only).
        public static let backupState: Code = "backup state"
        /// The credential public key's algorithm is not one the ceremony offered or Warden supports (ES256, EdDSA,
        /// RS256), or does not fit the key's type and curve (§7.1, §5.8.5).
        public static let algorithm: Code = "algorithm"
        /// The attestation statement is wrong: an unknown format, a `none` statement that is not empty, or a
        /// `packed` self attestation whose `alg` or `sig` does not verify with the credential key (§7.1, §8.2,
        /// §8.7).
        public static let attestation: Code = "attestation"
        /// The assertion signature does not verify with the stored credential public key (§7.2).
        public static let signature: Code = "signature"
        /// The signature counter did not grow while the stored or the received one is non-zero (§7.2, §6.1.1): a sign of a cloned authenticator, refused (SPEC §17).
        public static let signCount: Code = "sign count"
        /// The attested credential data is missing at registration, or the credential ID is longer than 1,023 bytes
        /// (§7.1, §6.5.1).
        public static let credential: Code = "credential"
        /// An input is not what its syntax requires: client data that is not a JSON object with string `type`,
        /// `challenge` and `origin`; an attestation object, authenticator data or COSE key that is not well-formed
        /// or exceeds the decoder's bounds (§5.8.1, §6.1, §6.5.4, ``CBORDecoder``).
        public static let malformed: Code = "malformed"
    }

    /// The check that failed.
    public let code: Code
    /// A sentence about the failed check, safe to show and to log.
    public let message: String

    /// Runs `decoding` of `what` with ``CBORDecoder``; a refusal is a ``Code/malformed`` error naming `what` and the
    /// decoder's rule.
    static func cbor<T>(_ what: String, _ decoding: () throws(CBORError) -> T) throws(WebAuthnError) -> T {
        do {
            return try decoding()
        } catch {
            throw WebAuthnError(code: .malformed, message: "\(what) is not CBOR within the decoder's bounds: \(error).")
        }
    }

    public var description: String { "\(code): \(message)" }

    public static func == (lhs: WebAuthnError, rhs: WebAuthnError) -> Bool {
        lhs.code == rhs.code
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
    }
}
