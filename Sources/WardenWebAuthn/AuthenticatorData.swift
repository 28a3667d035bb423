public import Foundation

/// Authenticator data (WebAuthn Level 3 §6.1): the RP ID hash, the flags, the signature counter, and at
/// registration the attested credential data (§6.5.1), then any extension outputs.
public struct AuthenticatorData: Sendable, Hashable {
    /// The flags byte (§6.1, "flags").
    public struct Flags: OptionSet, Sendable, Hashable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        /// UP, bit 0: the user was present.
        public static let userPresent = Flags(rawValue: 1 << 0)
        /// UV, bit 2: the user was verified.
        public static let userVerified = Flags(rawValue: 1 << 2)
        /// BE, bit 3: the credential may be backed up (a multi-device credential, §6.1.3).
        public static let backupEligible = Flags(rawValue: 1 << 3)
        /// BS, bit 4: the credential is backed up (§6.1.3).
        public static let backedUp = Flags(rawValue: 1 << 4)
        /// AT, bit 6: attested credential data follows the counter.
        public static let attestedCredentialData = Flags(rawValue: 1 << 6)
        /// ED, bit 7: extension outputs end the data.
        public static let extensionData = Flags(rawValue: 1 << 7)
    }

    /// The length of the fixed part: the RP ID hash, the flags and the counter.
    static let fixedLength = 37
    /// The longest credential ID WebAuthn allows (§6.5.1, §7.1).
    public static let maximumCredentialIDLength = 1023

    /// The authenticator data as received: what assertion and attestation signatures cover.
    public let bytes: [UInt8]
    /// SHA-256 of the RP ID the credential is scoped to.
    public var rpIDHash: ArraySlice<UInt8> { bytes[0..<32] }
    /// The flags.
    public let flags: Flags
    /// The signature counter (§6.1.1), zero when the authenticator keeps none.
    public let signCount: UInt32
    /// The credential created at registration (AT set), else `nil`.
    public let attestedCredentialData: AttestedCredentialData?
    /// The authenticator extension outputs (ED set): a CBOR map the checks do not read (§7.1, §7.2 "extension
    /// outputs": the RP may ignore them).
    public let extensions: [CBORMapKey: CBORValue]?

    /// Reads authenticator data: 37 bytes, then the attested credential data when AT is set and the extension map
    /// when ED is set, and nothing after them.
    public init(bytes: [UInt8]) throws(WebAuthnError) {
        guard bytes.count >= Self.fixedLength, bytes.count <= CBORDecoder.maximumInputSize else {
            throw WebAuthnError(
                code: .malformed, message: "The authenticator data is shorter than 37 bytes or longer than 64 KiB.")
        }
        self.bytes = bytes
        flags = Flags(rawValue: bytes[32])
        signCount = bytes[33..<37].reduce(0) { $0 << 8 | UInt32($1) }
        var offset = Self.fixedLength
        if flags.contains(.attestedCredentialData) {
            attestedCredentialData = try AttestedCredentialData(bytes, offset: &offset)
        } else {
            attestedCredentialData = nil
        }
        if flags.contains(.extensionData) {
            let decoded = try WebAuthnError.cbor("The authenticator data's extensions") { () throws(CBORError) in
                try CBORDecoder.decodePrefix(bytes, from: offset)
            }
            guard let map = decoded.value.map else {
                throw WebAuthnError(
                    code: .malformed, message: "The authenticator data's extensions are not a CBOR map.")
            }
            extensions = map
            offset = decoded.end
        } else {
            extensions = nil
        }
        guard offset == bytes.count else {
            throw WebAuthnError(code: .malformed, message: "Bytes follow what the authenticator data's flags announce.")
        }
    }
}

/// Attested credential data (WebAuthn Level 3 §6.5.1): the authenticator's AAGUID, the credential ID and the
/// credential public key.
public struct AttestedCredentialData: Sendable, Hashable {
    /// The authenticator model's AAGUID; all zeros when the authenticator does not say (e.g. `fido-u2f`, or an
    /// anonymised `none` attestation).
    public let aaguid: UUID
    /// The credential ID, at most ``AuthenticatorData/maximumCredentialIDLength`` bytes.
    public let credentialID: [UInt8]
    /// The credential public key.
    public let publicKey: COSEKey

    /// Reads the attested credential data at `offset` of `bytes` and moves `offset` past it.
    init(_ bytes: [UInt8], offset: inout Int) throws(WebAuthnError) {
        let headerEnd = offset + 18
        guard bytes.count >= headerEnd else {
            throw WebAuthnError(
                code: .malformed, message: "The attested credential data ends before its credential ID length.")
        }
        aaguid = UUID(uuid: bytes[offset..<offset + 16].withUnsafeBytes { $0.loadUnaligned(as: uuid_t.self) })
        let length = Int(bytes[headerEnd - 2]) << 8 | Int(bytes[headerEnd - 1])
        guard length <= AuthenticatorData.maximumCredentialIDLength else {
            throw WebAuthnError(code: .credential, message: "The credential ID is longer than 1,023 bytes.")
        }
        guard bytes.count >= headerEnd + length else {
            throw WebAuthnError(
                code: .malformed, message: "The attested credential data ends inside its credential ID.")
        }
        credentialID = Array(bytes[headerEnd..<headerEnd + length])
        let keyStart = headerEnd + length
        let decoded = try WebAuthnError.cbor("The credential public key") { () throws(CBORError) in
            try CBORDecoder.decodePrefix(bytes, from: keyStart)
        }
        publicKey = try COSEKey(decoded.value, bytes: Array(bytes[keyStart..<decoded.end]))
        offset = decoded.end
    }
}
