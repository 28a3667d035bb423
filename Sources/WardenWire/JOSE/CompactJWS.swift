public import Crypto
import Foundation

/// A parsed JWS compact serialization (RFC 7515 §7.1), before its signature is checked.
public struct CompactJWS: Sendable {
    /// The protected header (RFC 7515 §4).
    public let header: [String: JSONValue]
    /// The claims (RFC 7519 §4).
    public let payload: [String: JSONValue]
    let signingInput: Data
    let signature: Data

    /// Parses `token`; throws ``JWSError/malformed`` unless it has three base64url parts with JSON objects.
    public init(parsing token: String) throws(JWSError) {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, token.utf8.count <= 16 * 1024,
            let headerData = Base64URL.decode(String(parts[0])),
            let payloadData = Base64URL.decode(String(parts[1])),
            let signature = Base64URL.decode(String(parts[2])),
            case .object(let header)? = try? JSONValue(parsing: headerData),
            case .object(let payload)? = try? JSONValue(parsing: payloadData)
        else { throw .malformed }
        self.header = header
        self.payload = payload
        self.signingInput = Data(token.utf8.prefix(parts[0].utf8.count + 1 + parts[1].utf8.count))
        self.signature = signature
    }

    /// The `alg` header parameter.
    public var alg: String? { header["alg"]?.stringValue }
    /// The `kid` header parameter.
    public var kid: String? { header["kid"]?.stringValue }

    /// Whether `verifier` validates the signature under the header's `alg` (never `none`).
    public func isSigned(by verifier: JWSVerifier) -> Bool {
        guard let alg, alg != "none" else { return false }
        return verifier.isValid(signature: signature, signingInput: signingInput, alg: alg)
    }

    /// Whether the HS256 MAC (RFC 7518 §3.2) checks under `key`, compared in constant time.
    public func isAuthenticated(by key: SymmetricKey) -> Bool {
        alg == "HS256" && HMAC<SHA256>.isValidAuthenticationCode(signature, authenticating: signingInput, using: key)
    }

    /// A numeric date claim (`exp`, `iat`, `nbf`); fractional values are accepted (SPEC §7.4).
    public func numericDate(_ claim: String) -> Double? {
        payload[claim]?.doubleValue
    }

    /// The audience claim as a list (a string or an array of strings, RFC 7519 §4.1.3).
    public var audiences: [String] {
        switch payload["aud"] {
        case .string(let value)?: [value]
        case .array(let values)?: values.compactMap(\.stringValue)
        default: []
        }
    }
}
