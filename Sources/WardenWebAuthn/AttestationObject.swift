/// An attestation object (WebAuthn Level 3 §6.5.4): the attestation statement format `fmt`, its statement
/// `attStmt`, and the authenticator data `authData` with the new credential.
public struct AttestationObject: Sendable, Hashable {
    /// How an attestation statement was taken (§6.5.3, SPEC §17).
    public enum Attestation: Sendable, Hashable {
        /// `none` (§8.7): the authenticator, or the client, gave no attestation.
        case none
        /// `packed` without `x5c` (§8.2): signed with the credential key itself, and checked.
        case selfAttestation
        /// A statement with a certificate (`packed` with `x5c`, `tpm`, `android-key`, `android-safetynet`,
        /// `fido-u2f`, `apple`, `compound`) kept as unattested: Warden keeps no trust anchors, so SPEC §17 takes it
        /// without checking it. The format identifier is kept.
        case unverified(format: String)
    }

    /// The registered attestation statement formats (§8, the IANA "WebAuthn Attestation Statement Format
    /// Identifiers" registry) that are taken as unattested.
    static let unverifiedFormats: Set<String> = [
        "tpm", "android-key", "android-safetynet", "fido-u2f", "apple", "compound",
    ]

    /// The attestation statement format identifier.
    public let format: String
    /// The attestation statement, in its format's syntax.
    public let statement: [CBORMapKey: CBORValue]
    /// The authenticator data.
    public let authenticatorData: AuthenticatorData

    /// Reads an attestation object: a CBOR map (by the bounded ``CBORDecoder``) with a text `fmt`, a map `attStmt`
    /// and a byte string `authData`; other keys are ignored.
    public init(bytes: [UInt8]) throws(WebAuthnError) {
        let value = try WebAuthnError.cbor("The attestation object") { () throws(CBORError) in
            try CBORDecoder.decode(bytes)
        }
        guard let map = value.map, let format = map["fmt"]?.text, let statement = map["attStmt"]?.map,
            let authData = map["authData"]?.bytes
        else {
            throw WebAuthnError(
                code: .malformed, message: "The attestation object lacks a text fmt, a map attStmt or bytes authData.")
        }
        self.format = format
        self.statement = statement
        authenticatorData = try AuthenticatorData(bytes: authData)
    }

    /// The verification procedure of the statement's format (§7.1 "Verify that attStmt is a correct attestation
    /// statement"), given SHA-256 of `clientDataJSON`: `none` must be an empty map (§8.7); `packed` without `x5c` is
    /// self attestation, whose `alg` must be the credential key's and whose `sig` must verify over
    /// `authData ‖ clientDataHash` with that key (§8.2); the other registered formats are taken unverified.
    func verifyStatement(credentialKey: COSEKey, clientDataHash: [UInt8]) throws(WebAuthnError) -> Attestation {
        switch format {
        case "none":
            guard statement.isEmpty else {
                throw WebAuthnError(code: .attestation, message: "A none attestation statement is not an empty map.")
            }
            return .none
        case "packed" where statement["x5c"] != nil:
            return .unverified(format: format)
        case "packed":
            guard let alg = statement["alg"]?.integer, let signature = statement["sig"]?.bytes else {
                throw WebAuthnError(code: .attestation, message: "The packed attestation statement lacks alg or sig.")
            }
            guard alg == credentialKey.algorithm.rawValue else {
                throw WebAuthnError(
                    code: .attestation, message: "The packed self attestation's alg is not the credential key's.")
            }
            guard credentialKey.isValidSignature(signature, for: authenticatorData.bytes + clientDataHash) else {
                throw WebAuthnError(
                    code: .attestation, message: "The packed self attestation's signature does not verify.")
            }
            return .selfAttestation
        case _ where Self.unverifiedFormats.contains(format):
            return .unverified(format: format)
        default:
            throw WebAuthnError(
                code: .attestation, message: "The attestation statement format is not one Warden knows.")
        }
    }
}
