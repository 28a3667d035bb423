import Crypto
public import WardenWire

import struct Foundation.Data

/// The tokens an upstream answered a federated login with (SPEC §15 "Upstream tokens"): kept on the identity
/// only when the connection's `federated_connections_access_tokens.active` is true, and then only sealed by a
/// ``DataKeySealer``; the ID token is also what `/oidc/logout?federated` hands back to the upstream.
public struct UpstreamTokenSet: Sendable, Hashable, Codable {
    public var accessToken: String?
    public var refreshToken: String?
    public var idToken: String?
    /// Seconds the access token lives, as the token response said.
    public var expiresIn: Int?

    public init(accessToken: String?, refreshToken: String?, idToken: String?, expiresIn: Int?) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.idToken = idToken
        self.expiresIn = expiresIn
    }

    /// The tokens of a token response (RFC 6749 §5.1, OIDC Core §3.1.3.3).
    public init(tokenResponse body: [String: JSONValue]) {
        self.init(
            accessToken: body["access_token"]?.stringValue, refreshToken: body["refresh_token"]?.stringValue,
            idToken: body["id_token"]?.stringValue, expiresIn: body["expires_in"]?.intValue)
    }

    /// The members of `identities[]` a `read:user_idp_tokens` token sees (the vendor's names).
    public var identityMembers: [String: JSONValue] {
        var members: [String: JSONValue] = [:]
        if let accessToken { members["access_token"] = .string(accessToken) }
        if let refreshToken { members["refresh_token"] = .string(refreshToken) }
        if let expiresIn { members["expires_in"] = .number(Double(expiresIn)) }
        return members
    }

    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case refreshToken = "refresh_token"
        case idToken = "id_token"
        case expiresIn = "expires_in"
    }
}

/// AES-256-GCM under `WARDEN_DATA_KEY` (SPEC §1, §15): what Warden must be able to read back, never stored in
/// the clear. A sealed value is `v1.` and the base64url of nonce ‖ ciphertext ‖ tag; the associated data binds it
/// to where it is stored, so a value copied to another row does not open.
public struct DataKeySealer: Sendable {
    private let key: SymmetricKey

    /// A sealer with the 32-byte `key`; `nil` for another length.
    public init?(key: [UInt8]) {
        guard key.count == 32 else { return nil }
        self.key = SymmetricKey(data: key)
    }

    public func seal(_ plaintext: [UInt8], context: String) throws -> String {
        let box = try AES.GCM.seal(plaintext, using: key, authenticating: Array(context.utf8))
        guard let combined = box.combined else { throw CryptoKitError.incorrectParameterSize }
        return "v1." + Base64URL.encode(Array(combined))
    }

    /// The plaintext of `sealed`, or `nil` when it was not sealed with this key and `context`.
    public func open(_ sealed: String, context: String) -> [UInt8]? {
        guard sealed.hasPrefix("v1."), let bytes = Base64URL.decode(String(sealed.dropFirst(3))),
            let box = try? AES.GCM.SealedBox(combined: bytes),
            let plaintext = try? AES.GCM.open(box, using: key, authenticating: Array(context.utf8))
        else { return nil }
        return Array(plaintext)
    }
}
