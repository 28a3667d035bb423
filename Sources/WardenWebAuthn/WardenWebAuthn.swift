import Crypto

/// The WebAuthn Relying Party a ceremony is checked against (WebAuthn Level 3 §5.1.2 "RP ID", §13.4.9 "Validating
/// the origin of a credential"; SPEC §17): its RP ID, and the origins allowed to run its ceremonies.
///
/// SPEC §17 sets the RP ID from `--webauthn-rp-id` (default the issuer's host) and the origins from the issuer's
/// origin plus `--webauthn-origins`; checking that the RP ID is a registrable suffix of the issuer's host is the
/// server's, at start.
public struct RelyingParty: Sendable, Hashable {
    /// The RP ID, a domain: authenticators scope credentials to it.
    public let id: String
    /// The origins `clientDataJSON.origin` may name, compared as exact strings (§13.4.9).
    public let origins: Set<String>
    /// SHA-256 of the RP ID's UTF-8 bytes: the `rpIdHash` authenticator data must carry (§6.1).
    let idHash: [UInt8]

    public init(id: String, origins: some Sequence<String>) {
        self.id = id
        self.origins = Set(origins)
        idHash = Array(SHA256.hash(data: Array(id.utf8)))
    }

    /// Whether `id` may scope credentials for pages of `host` (§5.1.2, "a registrable domain suffix of or equal
    /// to the caller's origin's effective domain"): the host itself, or a suffix of it of at least two labels
    /// (`example.com` for `login.example.com`; never a top-level domain alone). Compared without case.
    public static func isValidID(_ id: String, forHost host: String) -> Bool {
        let id = id.lowercased()
        let host = host.lowercased()
        return id == host || (host.hasSuffix("." + id) && id.contains(".") && !id.hasPrefix("."))
    }

    /// The client data checks shared by registration (§7.1) and authentication (§7.2): `type`, `challenge`,
    /// `origin`, `crossOrigin` and `topOrigin`. Warden's ceremonies never run in a frame of another origin, so
    /// `crossOrigin: true` or any `topOrigin` fails the origin check.
    func verifyClientData(_ json: [UInt8], type: String, challenge: [UInt8]) throws(WebAuthnError) {
        let clientData = try CollectedClientData(json: json)
        guard clientData.type == type else {
            throw WebAuthnError(code: .type, message: "The client data's type is not \(type).")
        }
        guard clientData.answers(challenge) else {
            throw WebAuthnError(
                code: .challenge, message: "The client data's challenge is not the one this ceremony sent.")
        }
        guard origins.contains(clientData.origin) else {
            throw WebAuthnError(code: .origin, message: "The client data's origin is not an allowed origin.")
        }
        guard clientData.crossOrigin != true, clientData.topOrigin == nil else {
            throw WebAuthnError(
                code: .origin, message: "The ceremony ran in a frame of another origin (crossOrigin or topOrigin).")
        }
    }

    /// The authenticator data checks shared by registration (§7.1) and authentication (§7.2): the RP ID hash, UP,
    /// UV when `userVerification` is required, and BS only with BE (§6.1.3).
    func verifyAuthenticatorData(_ data: AuthenticatorData, requireUserVerification: Bool) throws(WebAuthnError) {
        guard data.rpIDHash.elementsEqual(idHash) else {
            throw WebAuthnError(code: .rpIdHash, message: "The authenticator data is not scoped to this RP ID.")
        }
        guard data.flags.contains(.userPresent) else {
            throw WebAuthnError(
                code: .userPresence, message: "The authenticator did not test user presence (UP is clear).")
        }
        guard data.flags.contains(.userVerified) || !requireUserVerification else {
            throw WebAuthnError(
                code: .userVerification, message: "The authenticator did not verify the user (UV is clear).")
        }
        guard data.flags.contains(.backupEligible) || !data.flags.contains(.backedUp) else {
            throw WebAuthnError(
                code: .backupState, message: "The credential claims to be backed up (BS) but not backup eligible (BE).")
        }
    }
}
