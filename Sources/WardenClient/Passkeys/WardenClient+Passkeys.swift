public import Foundation
public import WardenWire

/// A passkey ceremony Warden started (SPEC §17 "Native API"): the options for the platform's passkey API and the
/// session that must come back with its answer.
public struct PasskeyChallenge: Sendable {
    /// `authn_params_public_key`: the creation options of a sign-up or the request options of a sign-in (WebAuthn
    /// Level 3 §5.4, §5.5) in their JSON form, binary members base64url.
    public let options: [String: JSONValue]
    /// `auth_session`: single use, for 5 minutes, for this client only.
    public let authSession: String

    public init(options: [String: JSONValue], authSession: String) {
        self.options = options
        self.authSession = authSession
    }

    /// The challenge to sign (`challenge`, decoded): what `ASAuthorizationPlatformPublicKeyCredentialProvider`'s
    /// requests take.
    public var challenge: Data? { options["challenge"]?.stringValue.flatMap(Base64URL.decode) }
    /// The relying party ID: `rp.id` of a sign-up, `rpId` of a sign-in.
    public var relyingPartyID: String? { options["rp"]?["id"]?.stringValue ?? options["rpId"]?.stringValue }
    /// A sign-up's user handle (`user.id`, decoded).
    public var userID: Data? { options["user"]?["id"]?.stringValue.flatMap(Base64URL.decode) }
    /// A sign-up's account name (`user.name`, the e-mail address).
    public var userName: String? { options["user"]?["name"]?.stringValue }
}

/// What the platform's passkey API returned, for ``WardenClient/tokens(passkey:challenge:scope:audience:)``.
public struct PasskeyCredential: Sendable {
    /// A new credential (a sign-up) or an assertion (a sign-in), as the platform gives them.
    public enum Response: Sendable {
        case registration(clientDataJSON: Data, attestationObject: Data, transports: [String])
        case assertion(clientDataJSON: Data, authenticatorData: Data, signature: Data, userHandle: Data?)
    }

    /// The credential ID (`rawId`).
    public var id: Data
    /// `platform` or `cross-platform`, when the platform says.
    public var attachment: String?
    public var response: Response

    public init(id: Data, attachment: String? = nil, response: Response) {
        self.id = id
        self.attachment = attachment
        self.response = response
    }

    /// The `authn_response` Warden reads: WebAuthn Level 3 §5.1.8's JSON, binary members base64url.
    var json: JSONValue {
        let response: [String: JSONValue] =
            switch self.response {
            case .registration(let clientData, let attestation, let transports):
                [
                    "clientDataJSON": .string(Base64URL.encode(clientData)),
                    "attestationObject": .string(Base64URL.encode(attestation)),
                    "transports": .array(transports.map(JSONValue.string)),
                ]
            case .assertion(let clientData, let authenticatorData, let signature, let userHandle):
                [
                    "clientDataJSON": .string(Base64URL.encode(clientData)),
                    "authenticatorData": .string(Base64URL.encode(authenticatorData)),
                    "signature": .string(Base64URL.encode(signature)),
                    "userHandle": userHandle.map { .string(Base64URL.encode($0)) } ?? .null,
                ]
            }
        var credential: [String: JSONValue] = [
            "id": .string(Base64URL.encode(id)), "rawId": .string(Base64URL.encode(id)), "type": "public-key",
            "response": .object(response),
        ]
        if let attachment { credential["authenticatorAttachment"] = .string(attachment) }
        return .object(credential)
    }
}

extension WardenClient {
    /// Starts a passkey sign-up for `email` (`POST {issuer}passkey/register`, SPEC §17): the creation options for the
    /// platform's passkey API. Refused like a sign-up: `invalid_signup` for an address that cannot be used (never
    /// saying more), `signup_disabled`, `too_many_requests`; `access_denied` (403) while passkeys are off.
    public func passkeySignUpChallenge(email: String, name: String? = nil, realm: String? = nil) async throws
        -> PasskeyChallenge
    {
        var profile: [String: JSONValue] = ["email": .string(email)]
        if let name { profile["name"] = .string(name) }
        var fields = [("user_profile", JSONValue.object(profile).serialized)]
        if let realm { fields.append(("realm", realm)) }
        return try await passkeyChallenge("passkey/register", fields)
    }

    /// Starts a passkey sign-in (`POST {issuer}passkey/challenge`, SPEC §17): the request options of a
    /// discoverable credential, user verification required.
    public func passkeyLoginChallenge(realm: String? = nil) async throws -> PasskeyChallenge {
        try await passkeyChallenge("passkey/challenge", realm.map { [("realm", $0)] } ?? [])
    }

    /// Exchanges the platform's answer to `challenge` for tokens (`grant_type=urn:okta:params:oauth:grant-type:
    /// webauthn`, SPEC §17). A sign-up's answer makes the account. A failed check is `invalid_grant` naming it;
    /// the client needs the grant in its `grant_types` (`unauthorized_client`). The ID token is validated.
    public func tokens(
        passkey credential: PasskeyCredential, challenge: PasskeyChallenge, scope: [String] = ["openid"],
        audience: String? = nil
    ) async throws -> TokenResponse {
        var fields = [
            ("grant_type", "urn:okta:params:oauth:grant-type:webauthn"), ("auth_session", challenge.authSession),
            ("authn_response", credential.json.serialized), ("scope", scope.joined(separator: " ")),
        ]
        if let audience { fields.append(("audience", audience)) }
        return try await tokenRequest(fields, nonce: nil)
    }

    private func passkeyChallenge(_ path: String, _ fields: [(String, String)]) async throws -> PasskeyChallenge {
        let response = try await postForm(configuration.issuer.appendingPathComponent(path), fields)
        let answer = try Self.decodeSuccess(PasskeyChallengeAnswer.self, from: response)
        return PasskeyChallenge(options: answer.options, authSession: answer.authSession)
    }
}

/// `{"authn_params_public_key", "auth_session"}`.
private struct PasskeyChallengeAnswer: Decodable {
    var options: [String: JSONValue]
    var authSession: String

    enum CodingKeys: String, CodingKey {
        case options = "authn_params_public_key"
        case authSession = "auth_session"
    }
}
