import Foundation
import WardenCore
import WardenWebAuthn
import WardenWire

/// The passkey ceremonies of SPEC §17 around WardenWebAuthn's verifiers, one place for every check the verifiers
/// leave to the server: the options sent (algorithms −8, −7, −257; user verification required), the challenge's life
/// (random, single use across nodes, 5 minutes, bound to the client and to the `auth_session` or browser that
/// started it), a credential ID unique across users, the `userHandle` naming the credential's owner, and the sign
/// count stored by compare-and-set. Used by the native API (``PasskeyController``, ``WebAuthnGrant``), the hosted
/// pages, and the security keys of the second factor (`PasskeyCeremonies+SecurityKeys.swift`).
struct PasskeyCeremonies: Sendable {
    let relyingParty: RelyingParty
    let artefacts: any ArtefactStore
    let credentials: any WebAuthnCredentialStore
    let clock: any WardenClock

    /// How long a challenge may be answered (SPEC §17).
    static let lifetime: TimeInterval = 300
    static let artefactKind = "webauthn_challenge"

    /// A started ceremony, kept until its answer (or its expiry).
    struct Pending: Codable, Sendable {
        var ceremony: Ceremony
        /// The challenge sent, base64url.
        var challenge: String
        var clientID: String
        /// The hosted login's transaction the ceremony belongs to (its browser holds the transaction's CSRF
        /// cookie); `nil` for the native API, whose `auth_session` is the binding.
        var transactionID: String?
        /// Registration: the user to create, named by the user handle sent.
        var signUp: SignUp?
        /// Registration: the existing user a passkey is added to (progressive enrolment). Authentication: the user
        /// whose second factor is asked (their security keys only); `nil` for a passkey sign-in.
        var userID: String?
        /// Registration of a second factor's key: its kind; `nil` for a passkey.
        var kind: WebAuthnCredential.Kind?
        /// A second factor's `userVerification` (SPEC §17 factor settings); `nil` for a passkey, which always
        /// requires it.
        var userVerification: WebAuthnFactorSettings.UserVerification?
        /// A second factor's relying party ID when its settings override the server's.
        var relyingPartyID: String?

        enum Ceremony: String, Codable, Sendable {
            case registration, authentication
        }

        /// The account a passkey sign-up makes once its credential verifies.
        struct SignUp: Codable, Sendable {
            var userID: String
            var email: String
            var name: String?
        }

        enum CodingKeys: String, CodingKey {
            case ceremony, challenge
            case clientID = "client_id"
            case transactionID = "transaction_id"
            case signUp = "sign_up"
            case userID = "user_id"
            case kind
            case userVerification = "user_verification"
            case relyingPartyID = "rp_id"
        }

        /// Whether the ceremony requires the UV flag: always for a passkey, by the factor's settings for a key.
        var requiresUserVerification: Bool { (userVerification ?? .required) == .required }
    }

    /// The user handle of a user (WebAuthn §5.4.3 `user.id`): the UTF-8 of their `user_id`, which says nothing of
    /// the person.
    static func userHandle(of userID: String) -> [UInt8] { Array(userID.utf8) }

    /// `PublicKeyCredentialCreationOptions` (WebAuthn §5.4, in its JSON form: binary members base64url) for a
    /// new passkey of `signUp`, and the `auth_session` that must come back with the answer.
    func startRegistration(_ signUp: Pending.SignUp, clientID: String, transactionID: String? = nil) async throws
        -> (JSONValue, String)
    {
        let challenge = RandomToken.bytes(32)
        let options = creationOptions(
            challenge: challenge, userID: signUp.userID, name: signUp.email, displayName: signUp.name, exclude: [])
        let session = try await keep(
            Pending(
                ceremony: .registration, challenge: Base64URL.encode(challenge), clientID: clientID,
                transactionID: transactionID, signUp: signUp))
        return (options, session)
    }

    /// Creation options for a passkey added to the existing `user` (progressive enrolment, SPEC §17):
    /// `excludeCredentials` lists the passkeys they have, so an authenticator holding one says so instead.
    func startEnrollment(
        of user: User, existing: [WebAuthnCredential], clientID: String, transactionID: String
    ) async throws -> (JSONValue, String) {
        let challenge = RandomToken.bytes(32)
        let options = creationOptions(
            challenge: challenge, userID: user.userID, name: user.email ?? user.userID, displayName: user.name,
            exclude: existing)
        let session = try await keep(
            Pending(
                ceremony: .registration, challenge: Base64URL.encode(challenge), clientID: clientID,
                transactionID: transactionID, userID: user.userID))
        return (options, session)
    }

    /// The `authenticatorSelection` of a passkey: discoverable and user-verified.
    static let passkeySelection: JSONValue = ["residentKey": "required", "userVerification": "required"]

    /// `PublicKeyCredentialCreationOptions` (WebAuthn §5.4): algorithms −8, −7, −257, attestation `none`,
    /// `excludeCredentials` for the credentials the user has, and `selection` (a discoverable, user-verified passkey
    /// unless a security key's is given) for relying party `rpID` (the server's unless given).
    func creationOptions(
        challenge: [UInt8], userID: String, name: String, displayName: String?, exclude: [WebAuthnCredential],
        selection: JSONValue = passkeySelection, rpID: String? = nil
    ) -> JSONValue {
        let rpID = rpID ?? relyingParty.id
        var options: [String: JSONValue] = [
            "challenge": .string(Base64URL.encode(challenge)),
            "timeout": .number(Self.lifetime * 1000),
            "rp": ["id": .string(rpID), "name": .string(rpID)],
            "user": [
                "id": .string(Base64URL.encode(Self.userHandle(of: userID))), "name": .string(name),
                "displayName": .string(displayName ?? name),
            ],
            "pubKeyCredParams": .array(
                COSEAlgorithm.supported.map { ["type": "public-key", "alg": .number(Double($0.rawValue))] }),
            "authenticatorSelection": selection,
            "attestation": "none",
        ]
        if !exclude.isEmpty {
            options["excludeCredentials"] = .array(
                exclude.map { credential in
                    [
                        "type": "public-key", "id": .string(Base64URL.encode(credential.credentialID)),
                        "transports": .array(credential.transports.map(JSONValue.string)),
                    ]
                })
        }
        return .object(options)
    }

    /// `PublicKeyCredentialRequestOptions` (WebAuthn §5.5) for a discoverable-credential sign-in, and its
    /// `auth_session`.
    func startAuthentication(clientID: String, transactionID: String? = nil) async throws -> (JSONValue, String) {
        let challenge = RandomToken.bytes(32)
        let options: JSONValue = [
            "challenge": .string(Base64URL.encode(challenge)),
            "timeout": .number(Self.lifetime * 1000),
            "rpId": .string(relyingParty.id),
            "userVerification": "required",
        ]
        let session = try await keep(
            Pending(
                ceremony: .authentication, challenge: Base64URL.encode(challenge), clientID: clientID,
                transactionID: transactionID))
        return (options, session)
    }

    /// Consumes the ceremony `session` names for `clientID` and the hosted login `transactionID` (single use: a
    /// replay, another client's or login's session, an expired or unknown one → `invalid_grant`).
    func consume(_ session: String, clientID: String, transactionID: String? = nil) async throws -> Pending {
        let result = try await artefacts.consumeArtefact(
            kind: Self.artefactKind, hash: SecretHash.sha256Hex(session), now: clock.now())
        guard case .consumed(let payload) = result,
            let pending = try? JSONDecoder().decode(Pending.self, from: Data(payload.utf8)),
            pending.clientID == clientID, pending.transactionID == transactionID
        else { throw OAuthError(.invalidGrant, "The auth_session is unknown, expired or used") }
        return pending
    }

    /// A registration answer checked (WebAuthn §7.1 through ``RegistrationVerifier``; UV required for a passkey, as
    /// the factor's settings say for a security key) and its credential ready to store for `userID`, of the
    /// ceremony's kind.
    func register(_ answer: PublicKeyCredentialAnswer, pending: Pending, userID: String, userAgent: String?) throws
        -> WebAuthnCredential
    {
        guard pending.ceremony == .registration, case .attestation(let attestationObject) = answer.response else {
            throw OAuthError(.invalidGrant, "authn_response is not a registration (no attestationObject)")
        }
        let party = relyingParty(of: pending)
        let registered: RegisteredCredential
        do {
            registered = try RegistrationVerifier(relyingParty: party).verify(
                clientDataJSON: answer.clientDataJSON, attestationObject: attestationObject,
                challenge: try challengeBytes(pending), requireUserVerification: pending.requiresUserVerification)
        } catch {
            throw Self.refused(error)
        }
        guard registered.id == answer.rawID else {
            throw OAuthError(.invalidGrant, "rawId is not the credential ID the authenticator data names")
        }
        var credential = WebAuthnCredential(
            id: RandomToken.identifier(prefix: "dev_"), userID: userID, kind: pending.kind ?? .passkey,
            credentialID: registered.id, publicKey: registered.publicKey.bytes, signCount: registered.signCount,
            aaguid: registered.aaguid, relyingPartyID: party.id, createdAt: clock.now())
        credential.transports = answer.transports
        credential.backupEligible = registered.backupEligible
        credential.backedUp = registered.backedUp
        credential.name = PasskeyNames.name(
            userAgent: userAgent, backupEligible: registered.backupEligible, kind: credential.kind)
        credential.userAgent = userAgent
        return credential
    }

    /// An assertion checked (WebAuthn §7.2 through ``AssertionVerifier``): the credential by `rawId`, its owner —
    /// named by `userHandle` for a passkey sign-in (UV required), the user asked for a second factor (whose
    /// security keys only; a `userHandle`, optional then, must name them; UV as the factor's settings say) — the
    /// signature, the counter — stored by compare-and-set, so two answers racing with one counter value sign in
    /// once. Returns the credential as updated.
    func authenticate(_ answer: PublicKeyCredentialAnswer, pending: Pending) async throws -> WebAuthnCredential {
        guard pending.ceremony == .authentication,
            case .assertion(let authenticatorData, let signature, let userHandle) = answer.response
        else {
            throw OAuthError(.invalidGrant, "authn_response is not a sign-in (no authenticatorData and signature)")
        }
        guard var credential = try await credentials.webAuthnCredential(credentialID: answer.rawID),
            (credential.kind == .passkey) == (pending.userID == nil)
        else {
            OperationalMetrics.passkeyFailure(check: WebAuthnError.Code.credential.rawValue)
            throw OAuthError(.invalidGrant, pending.userID == nil ? "The passkey is not registered" : "Unknown key")
        }
        if let owner = pending.userID {
            guard credential.userID == owner, userHandle.map({ $0 == Self.userHandle(of: owner) }) ?? true else {
                OperationalMetrics.passkeyFailure(check: WebAuthnError.Code.credential.rawValue)
                throw OAuthError(.invalidGrant, "The security key is not this user's")
            }
        } else {
            guard let userHandle, userHandle == Self.userHandle(of: credential.userID) else {
                OperationalMetrics.passkeyFailure(check: "userHandle")
                throw OAuthError(.invalidGrant, "userHandle does not name the passkey's owner")
            }
        }
        let verified: VerifiedAssertion
        do {
            let key = try COSEKey(bytes: credential.publicKey)
            verified = try AssertionVerifier(relyingParty: relyingParty(of: pending)).verify(
                clientDataJSON: answer.clientDataJSON, authenticatorData: authenticatorData, signature: signature,
                challenge: try challengeBytes(pending), requireUserVerification: pending.requiresUserVerification,
                credential: StoredCredential(
                    publicKey: key, signCount: credential.signCount, backupEligible: credential.backupEligible))
        } catch {
            throw Self.refused(error)
        }
        let now = clock.now()
        guard
            try await credentials.recordWebAuthnAssertion(
                id: credential.id, expectedSignCount: credential.signCount, signCount: verified.signCount,
                backupEligible: verified.backupEligible, backedUp: verified.backedUp, at: now)
        else {
            throw OAuthError(.invalidGrant, "sign count: another sign-in with this passkey was recorded first")
        }
        credential.signCount = verified.signCount
        credential.backupEligible = verified.backupEligible
        credential.backedUp = verified.backedUp
        credential.lastAuthAt = now
        return credential
    }

    /// The relying party a ceremony is checked against: the server's, or a factor's override (same origins).
    private func relyingParty(of pending: Pending) -> RelyingParty {
        guard let id = pending.relyingPartyID, id != relyingParty.id else { return relyingParty }
        return RelyingParty(id: id, origins: relyingParty.origins)
    }

    func keep(_ pending: Pending) async throws -> String {
        let session = RandomToken.make()
        try await artefacts.putArtefact(
            kind: Self.artefactKind, hash: SecretHash.sha256Hex(session),
            payload: String(decoding: try JSONEncoder().encode(pending), as: UTF8.self),
            expiresAt: clock.now().addingTimeInterval(Self.lifetime))
        return session
    }

    private func challengeBytes(_ pending: Pending) throws -> [UInt8] {
        guard let bytes = Base64URL.decode(pending.challenge) else {
            throw OAuthError.serverError(debug: "a stored WebAuthn challenge is not base64url")
        }
        return Array(bytes)
    }

    /// A failed check as the token endpoint answers it: `invalid_grant` naming the check (SPEC §17), counted in
    /// `warden_passkey_failures_total` by check.
    static func refused(_ error: any Error) -> OAuthError {
        if let error = error as? OAuthError { return error }
        if let error = error as? WebAuthnError {
            OperationalMetrics.passkeyFailure(check: error.code.rawValue)
            return OAuthError(.invalidGrant, "\(error.code): \(error.message)")
        }
        return OAuthError(.invalidGrant, "The passkey could not be checked")
    }
}
