import Foundation
import WardenCore
import WardenWebAuthn
import WardenWire

/// The ceremonies of the WebAuthn second factors (SPEC §17 "Second factor"): a security key (`webauthn-roaming`,
/// `authenticatorAttachment: "cross-platform"`) or the device's own authenticator (`webauthn-platform`) added at
/// `/u/mfa/enroll` and asked at `/u/mfa/webauthn`. Not discoverable (the user is known from the first factor), user
/// verification and relying party as the factor's settings say. The checks are the passkeys' own
/// (``PasskeyCeremonies/register(_:pending:userID:userAgent:)``, ``PasskeyCeremonies/authenticate(_:pending:)``).
extension PasskeyCeremonies {
    /// The WebAuthn second factors that can be enrolled or asked, with their settings.
    struct SecurityKeyFactor: Sendable {
        var factor: MFAFactor
        var settings: WebAuthnFactorSettings

        /// The kind of credential this factor stores.
        var kind: WebAuthnCredential.Kind { factor == .webAuthnPlatform ? .platform : .roaming }
        /// `authenticatorAttachment` (WebAuthn §5.4.5) of its registrations.
        var attachment: String { factor == .webAuthnPlatform ? "platform" : "cross-platform" }
    }

    /// Creation options for a key of `factor` added to `user`, whose existing credentials (`existing`, of every kind)
    /// are excluded, and the session that must come back with the answer.
    func startSecurityKeyEnrollment(
        of user: User, factor: SecurityKeyFactor, existing: [WebAuthnCredential], clientID: String,
        transactionID: String
    ) async throws -> (JSONValue, String) {
        let challenge = RandomToken.bytes(32)
        let rpID = factor.settings.relyingPartyID(default: relyingParty.id)
        let options = creationOptions(
            challenge: challenge, userID: user.userID, name: user.email ?? user.userID, displayName: user.name,
            exclude: existing,
            selection: [
                "authenticatorAttachment": .string(factor.attachment), "residentKey": "discouraged",
                "userVerification": .string(factor.settings.userVerification.rawValue),
            ],
            rpID: rpID)
        let session = try await keep(
            Pending(
                ceremony: .registration, challenge: Base64URL.encode(challenge), clientID: clientID,
                transactionID: transactionID, userID: user.userID, kind: factor.kind,
                userVerification: factor.settings.userVerification, relyingPartyID: rpID))
        return (options, session)
    }

    /// Request options naming `keys` (`allowCredentials`) of `userID`, as the second factor of a login, and the
    /// session of the answer. The keys offered are those of one relying party — the first factor's that has keys —
    /// since one request has one `rpId`; user verification is the strictest the offered factors ask.
    func startSecurityKeyAuthentication(
        userID: String, keys: [WebAuthnCredential], factors: [SecurityKeyFactor], clientID: String,
        transactionID: String
    ) async throws -> (JSONValue, String) {
        let rpIDs = factors.map { $0.settings.relyingPartyID(default: relyingParty.id) }
        let rpID = rpIDs.first { id in keys.contains { $0.relyingPartyID == id } } ?? relyingParty.id
        let offered = keys.filter { $0.relyingPartyID == rpID }
        let verification = Self.strictest(
            factors.filter { $0.settings.relyingPartyID(default: relyingParty.id) == rpID }.map(
                \.settings.userVerification))
        let challenge = RandomToken.bytes(32)
        let options: JSONValue = [
            "challenge": .string(Base64URL.encode(challenge)),
            "timeout": .number(Self.lifetime * 1000),
            "rpId": .string(rpID),
            "userVerification": .string(verification.rawValue),
            "allowCredentials": .array(
                offered.map { key in
                    [
                        "type": "public-key", "id": .string(Base64URL.encode(key.credentialID)),
                        "transports": .array(key.transports.map(JSONValue.string)),
                    ]
                }),
        ]
        let session = try await keep(
            Pending(
                ceremony: .authentication, challenge: Base64URL.encode(challenge), clientID: clientID,
                transactionID: transactionID, userID: userID, userVerification: verification,
                relyingPartyID: rpID))
        return (options, session)
    }

    /// `required` when any asks it, else `preferred` when any prefers it, else `discouraged`.
    static func strictest(_ values: [WebAuthnFactorSettings.UserVerification])
        -> WebAuthnFactorSettings.UserVerification
    {
        if values.contains(.required) { return .required }
        return values.contains(.preferred) || values.isEmpty ? .preferred : .discouraged
    }
}
