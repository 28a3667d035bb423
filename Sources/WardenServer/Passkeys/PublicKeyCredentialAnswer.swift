import WardenCore
import WardenWire

/// A `PublicKeyCredential` in its JSON form (WebAuthn Level 3 §5.1.8 `toJSON()`: binary members base64url), as the
/// native API's `authn_response` carries it (SPEC §17): `id`, `rawId`, `type` `public-key`, and the `response` of a
/// registration (`clientDataJSON`, `attestationObject`, `transports`) or of a sign-in (`clientDataJSON`,
/// `authenticatorData`, `signature`, `userHandle`).
struct PublicKeyCredentialAnswer: Sendable {
    var rawID: [UInt8]
    var clientDataJSON: [UInt8]
    var response: Response
    /// `response.transports` (registration), what the client reported.
    var transports: [String]

    enum Response: Sendable {
        case attestation(attestationObject: [UInt8])
        case assertion(authenticatorData: [UInt8], signature: [UInt8], userHandle: [UInt8]?)
    }

    /// Reads `text`; anything missing, mistyped or not base64url → `invalid_request` naming the member.
    init(json text: String) throws(OAuthError) {
        guard case .object(let object)? = try? JSONValue(parsing: Array(text.utf8)) else {
            throw .invalidRequest("authn_response must be a JSON object")
        }
        guard object["type"]?.stringValue == "public-key" else {
            throw .invalidRequest("authn_response.type must be public-key")
        }
        guard case .object(let response)? = object["response"] else {
            throw .invalidRequest("authn_response.response must be an object")
        }
        rawID = try Self.bytes(object["rawId"] ?? object["id"], "rawId")
        if let id = object["id"]?.stringValue, Base64URL.decode(id).map(Array.init) != rawID {
            throw .invalidRequest("authn_response.id and rawId differ")
        }
        clientDataJSON = try Self.bytes(response["clientDataJSON"], "response.clientDataJSON")
        transports = (response["transports"]?.arrayValue ?? []).compactMap(\.stringValue).prefix(8).map { $0 }
        if let attestation = response["attestationObject"] {
            self.response = .attestation(attestationObject: try Self.bytes(attestation, "response.attestationObject"))
        } else {
            // `null` is absent (JSONValue is nil-literal convertible: a bare `nil` here would be `.null`).
            let userHandle = response["userHandle"].flatMap { value -> JSONValue? in value.isNull ? .none : value }
            self.response = .assertion(
                authenticatorData: try Self.bytes(response["authenticatorData"], "response.authenticatorData"),
                signature: try Self.bytes(response["signature"], "response.signature"),
                userHandle: try userHandle.map { value throws(OAuthError) in
                    try Self.bytes(value, "response.userHandle")
                })
        }
    }

    private static func bytes(_ value: JSONValue?, _ name: String) throws(OAuthError) -> [UInt8] {
        guard let text = value?.stringValue, let bytes = Base64URL.decode(text) else {
            throw .invalidRequest("authn_response.\(name) must be base64url")
        }
        return Array(bytes)
    }
}

/// The name a new passkey or key gets (SPEC §17 `name`): what it is and where it was made.
enum PasskeyNames {
    /// "Security key", or "{Synced passkey|Passkey|This device} on {platform}" from the browser's `User-Agent`.
    static func name(userAgent: String?, backupEligible: Bool, kind: WebAuthnCredential.Kind = .passkey) -> String {
        if kind == .roaming { return "Security key" }
        let agent = userAgent ?? ""
        let platform =
            [
                ("iPhone", "iPhone"), ("iPad", "iPad"), ("Android", "Android"), ("Mac OS X", "Mac"),
                ("Windows", "Windows"),
                ("Linux", "Linux"), ("CFNetwork", "Apple device"), ("okhttp", "Android"),
            ]
            .first { agent.contains($0.0) }?.1
        let noun = kind == .platform ? "This device" : backupEligible ? "Synced passkey" : "Passkey"
        return platform.map { "\(noun) on \($0)" } ?? noun
    }
}
