public import WardenWire

public import struct Foundation.Date
public import struct Foundation.UUID

/// A WebAuthn credential of a user (SPEC §17): a passkey, or a security key or platform authenticator used as a
/// second factor. What WebAuthn Level 3 §7.1 calls the credential record, with what the Management API shows.
public struct WebAuthnCredential: Sendable, Equatable {
    /// Warden's id of the credential (`dev_…`); the Management API's method id is `{kind}|{id}`.
    public var id: String
    public var userID: String
    public var kind: Kind
    /// The credential ID the authenticator made (at most 1,023 bytes, unique across users).
    public var credentialID: [UInt8]
    /// The credential public key, COSE-encoded (RFC 9052 §7), as the authenticator gave it.
    public var publicKey: [UInt8]
    /// The last signature counter seen.
    public var signCount: UInt32
    /// The authenticator model.
    public var aaguid: UUID
    /// The RP ID the credential is scoped to (SPEC §17 `relying_party_identifier`).
    public var relyingPartyID: String
    /// What the client reported of `getTransports()`.
    public var transports: [String]
    /// BE: a multi-device (synced) credential.
    public var backupEligible: Bool
    /// BS: backed up, as of the last ceremony.
    public var backedUp: Bool
    /// A name the user or an administrator chose (the browser and platform by default).
    public var name: String
    /// The user agent of the registration.
    public var userAgent: String?
    public var createdAt: Date
    public var lastAuthAt: Date?

    public init(
        id: String, userID: String, kind: Kind, credentialID: [UInt8], publicKey: [UInt8], signCount: UInt32,
        aaguid: UUID, relyingPartyID: String, createdAt: Date
    ) {
        self.id = id
        self.userID = userID
        self.kind = kind
        self.credentialID = credentialID
        self.publicKey = publicKey
        self.signCount = signCount
        self.aaguid = aaguid
        self.relyingPartyID = relyingPartyID
        self.transports = []
        self.backupEligible = false
        self.backedUp = false
        self.name = ""
        self.createdAt = createdAt
    }

    /// The Management API's id of the method (SPEC §17): `passkey|dev_…`.
    public var methodID: String { "\(kind.rawValue)|\(id)" }

    /// What a credential is for (SPEC §17 `type`), open for values a newer node writes.
    public struct Kind: OpenStringValue {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// A discoverable, user-verifying credential that signs the user in alone.
        public static let passkey: Kind = "passkey"
        /// A security key as a second factor (§12 `webauthn-roaming`).
        public static let roaming: Kind = "webauthn-roaming"
        /// The device's own authenticator as a second factor (§12 `webauthn-platform`).
        public static let platform: Kind = "webauthn-platform"
    }
}

/// Why ``WebAuthnCredentialStore/insertWebAuthnCredential(_:limit:)`` stored nothing.
public enum WebAuthnCredentialInsert: Sendable, Equatable {
    case inserted
    /// The credential ID is registered already (to this user or another).
    case duplicateCredential
    /// The user has `limit` credentials of that kind already.
    case limitReached
}
