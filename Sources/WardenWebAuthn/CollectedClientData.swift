import Foundation

/// The client data a browser or platform signed over (WebAuthn Level 3 §5.8.1): the ceremony's `type`, the
/// `challenge` it answers, the caller's `origin`, and whether it ran in a cross-origin frame.
public struct CollectedClientData: Sendable, Hashable, Decodable {
    /// `webauthn.create` at registration, `webauthn.get` at sign-in.
    public let type: String
    /// The base64url encoding of the challenge, as the client wrote it.
    public let challenge: String
    /// The fully qualified origin of the requester (§5.8.1), e.g. `https://id.example.com` or, from an Android app,
    /// `android:apk-key-hash:…`.
    public let origin: String
    /// Whether the ceremony ran in a frame not same-origin with its ancestors.
    public let crossOrigin: Bool?
    /// The top-level origin, present only in such a frame.
    public let topOrigin: String?

    /// Reads `clientDataJSON`: UTF-8 JSON, a leading byte order mark stripped (§7.1, §7.2 "UTF-8 decode"), at most
    /// 64 KiB, an object whose `type`, `challenge` and `origin` are strings; other members are ignored (§5.8.1.2).
    public init(json: [UInt8]) throws(WebAuthnError) {
        let text = json.starts(with: [0xEF, 0xBB, 0xBF]) ? json.dropFirst(3) : json[...]
        guard text.count <= CBORDecoder.maximumInputSize,
            let decoded = try? JSONDecoder().decode(CollectedClientData.self, from: Data(text))
        else {
            throw WebAuthnError(
                code: .malformed,
                message: "The client data is not a JSON object of at most 64 KiB with type, challenge and origin.")
        }
        self = decoded
    }

    /// Whether ``challenge`` equals the base64url encoding (RFC 4648 §5, without padding) of `expected` (§7.1,
    /// §7.2), compared in time that depends only on the lengths: the challenge is the ceremony's secret until used.
    func answers(_ expected: [UInt8]) -> Bool {
        let encoded = Data(expected).base64EncodedString().utf8.compactMap { byte -> UInt8? in
            switch byte {
            case UInt8(ascii: "+"): UInt8(ascii: "-")
            case UInt8(ascii: "/"): UInt8(ascii: "_")
            case UInt8(ascii: "="): nil
            default: byte
            }
        }
        let received = Array(challenge.utf8)
        guard received.count == encoded.count else { return false }
        return zip(received, encoded).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
