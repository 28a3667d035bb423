import Crypto

/// Checks a sign-in: the authentication ceremony of WebAuthn Level 3 §7.2 as SPEC §17 lists it.
///
/// What is left to the caller: finding the credential record by `rawId` and checking that the `userHandle` names its
/// owner (§7.2, SPEC §17), the challenge's life, logging a refused sign count, and storing the
/// ``VerifiedAssertion``'s counter and flags.
public struct AssertionVerifier: Sendable {
    /// The relying party whose RP ID and origins the ceremony must match.
    public let relyingParty: RelyingParty

    public init(relyingParty: RelyingParty) {
        self.relyingParty = relyingParty
    }

    /// Verifies an `AuthenticatorAssertionResponse` (§5.2.2) in the order of §7.2: the client data's `type`
    /// (`webauthn.get`), `challenge`, `origin` and `crossOrigin`; the authenticator data's RP ID hash, UP, UV when
    /// `requireUserVerification`, BS only with BE, BE still set when the credential was backup eligible; the
    /// signature over `authenticatorData ‖ SHA-256(clientDataJSON)`; the signature counter.
    ///
    /// - Parameters:
    ///   - clientDataJSON: `response.clientDataJSON`.
    ///   - authenticatorData: `response.authenticatorData`.
    ///   - signature: `response.signature`.
    ///   - challenge: the challenge of the `PublicKeyCredentialRequestOptions` sent.
    ///   - requireUserVerification: whether UV must be set (SPEC §17: always for passkey sign-in).
    ///   - credential: the stored credential record.
    /// - Throws: a ``WebAuthnError`` naming the first check that failed.
    public func verify(
        clientDataJSON: [UInt8], authenticatorData: [UInt8], signature: [UInt8], challenge: [UInt8],
        requireUserVerification: Bool, credential: StoredCredential
    ) throws(WebAuthnError) -> VerifiedAssertion {
        try relyingParty.verifyClientData(clientDataJSON, type: "webauthn.get", challenge: challenge)
        let authData = try AuthenticatorData(bytes: authenticatorData)
        try relyingParty.verifyAuthenticatorData(authData, requireUserVerification: requireUserVerification)
        guard authData.flags.contains(.backupEligible) || !credential.backupEligible else {
            throw WebAuthnError(code: .backupState, message: "A backup eligible credential reports BE clear.")
        }
        let clientDataHash = Array(SHA256.hash(data: clientDataJSON))
        guard credential.publicKey.isValidSignature(signature, for: authenticatorData + clientDataHash) else {
            throw WebAuthnError(
                code: .signature, message: "The assertion signature does not verify with the credential's key.")
        }
        if authData.signCount != 0 || credential.signCount != 0 {
            guard authData.signCount > credential.signCount else {
                throw WebAuthnError(
                    code: .signCount, message: "The signature counter did not grow: the authenticator may be cloned.")
            }
        }
        return VerifiedAssertion(
            signCount: authData.signCount, userVerified: authData.flags.contains(.userVerified),
            backupEligible: authData.flags.contains(.backupEligible), backedUp: authData.flags.contains(.backedUp))
    }
}

/// What an assertion is checked against: the parts of §7.1's credential record that §7.2 reads.
public struct StoredCredential: Sendable, Hashable {
    /// The credential public key, e.g. `COSEKey(bytes:)` of the stored bytes.
    public let publicKey: COSEKey
    /// The last signature counter seen.
    public let signCount: UInt32
    /// Whether BE was set: once set, it must stay set (SPEC §17 lets it go from 0 to 1 only).
    public let backupEligible: Bool

    public init(publicKey: COSEKey, signCount: UInt32, backupEligible: Bool) {
        self.publicKey = publicKey
        self.signCount = signCount
        self.backupEligible = backupEligible
    }
}

/// A sign-in that passed: the credential record's new state (§7.2 "Update credentialRecord").
public struct VerifiedAssertion: Sendable, Hashable {
    /// The new signature counter.
    public let signCount: UInt32
    /// UV: the user was verified.
    public let userVerified: Bool
    /// BE, which may have become set (a credential synced later).
    public let backupEligible: Bool
    /// BS: backed up now.
    public let backedUp: Bool
}
