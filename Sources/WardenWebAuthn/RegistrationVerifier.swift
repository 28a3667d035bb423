import Crypto
public import Foundation

/// Checks a new credential: the registration ceremony of WebAuthn Level 3 §7.1 as SPEC §17 lists it.
///
/// What is left to the caller: the challenge's life (random, single use, 5 minutes, bound to the browser or the
/// `auth_session`), that the credential ID is not registered to any user yet (§7.1, SPEC §17: unique across users),
/// and storing the ``RegisteredCredential`` with the transports the client reported.
public struct RegistrationVerifier: Sendable {
    /// The relying party whose RP ID and origins the ceremony must match.
    public let relyingParty: RelyingParty

    public init(relyingParty: RelyingParty) {
        self.relyingParty = relyingParty
    }

    /// Verifies an `AuthenticatorAttestationResponse` (§5.2.1) in the order of §7.1: the client data's `type`
    /// (`webauthn.create`), `challenge`, `origin` and `crossOrigin`; the authenticator data's RP ID hash, UP, UV
    /// when `requireUserVerification`, BS only with BE; the credential key's algorithm among `algorithms` (the
    /// `pubKeyCredParams` the ceremony offered); the attestation statement; the credential ID's length.
    ///
    /// - Parameters:
    ///   - clientDataJSON: `response.clientDataJSON`.
    ///   - attestationObject: `response.attestationObject`.
    ///   - challenge: the challenge of the `PublicKeyCredentialCreationOptions` sent.
    ///   - algorithms: the algorithms offered; by default all that Warden supports.
    ///   - requireUserVerification: whether UV must be set (SPEC §17: always for passkeys).
    /// - Throws: a ``WebAuthnError`` naming the first check that failed.
    public func verify(
        clientDataJSON: [UInt8], attestationObject: [UInt8], challenge: [UInt8],
        algorithms: [COSEAlgorithm] = COSEAlgorithm.supported, requireUserVerification: Bool
    ) throws(WebAuthnError) -> RegisteredCredential {
        try relyingParty.verifyClientData(clientDataJSON, type: "webauthn.create", challenge: challenge)
        let clientDataHash = Array(SHA256.hash(data: clientDataJSON))
        let object = try AttestationObject(bytes: attestationObject)
        let authData = object.authenticatorData
        try relyingParty.verifyAuthenticatorData(authData, requireUserVerification: requireUserVerification)
        guard let credential = authData.attestedCredentialData else {
            throw WebAuthnError(
                code: .credential, message: "The authenticator data carries no attested credential data (AT).")
        }
        guard algorithms.contains(credential.publicKey.algorithm) else {
            throw WebAuthnError(
                code: .algorithm, message: "The credential's algorithm is not one the ceremony offered.")
        }
        let attestation = try object.verifyStatement(
            credentialKey: credential.publicKey, clientDataHash: clientDataHash)
        return RegisteredCredential(authenticatorData: authData, credential: credential, attestation: attestation)
    }
}

/// A credential that passed registration: what §7.1's credential record keeps, with the AAGUID and the
/// attestation taken (SPEC §17's `public_key`, `aaguid`, `credential_device_type`, `credential_backed_up`).
public struct RegisteredCredential: Sendable, Hashable {
    /// The credential ID (`key_id`).
    public let id: [UInt8]
    /// The credential public key; its ``COSEKey/bytes`` are what to store.
    public let publicKey: COSEKey
    /// The authenticator model's AAGUID.
    public let aaguid: UUID
    /// The signature counter at creation.
    public let signCount: UInt32
    /// UV at creation (the credential record's `uvInitialized`).
    public let userVerified: Bool
    /// BE: a multi-device (synced) credential.
    public let backupEligible: Bool
    /// BS: backed up now.
    public let backedUp: Bool
    /// How the attestation statement was taken.
    public let attestation: AttestationObject.Attestation

    init(
        authenticatorData: AuthenticatorData, credential: AttestedCredentialData,
        attestation: AttestationObject.Attestation
    ) {
        id = credential.credentialID
        publicKey = credential.publicKey
        aaguid = credential.aaguid
        signCount = authenticatorData.signCount
        userVerified = authenticatorData.flags.contains(.userVerified)
        backupEligible = authenticatorData.flags.contains(.backupEligible)
        backedUp = authenticatorData.flags.contains(.backedUp)
        self.attestation = attestation
    }
}
