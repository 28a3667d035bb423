import Foundation
import WardenWire

/// RS256 JWS in compact serialization (RFC 7515 §7.1): `base64url(header).base64url(payload).base64url(sig)`.
enum CompactJWS {
    static func sign(header: some Encodable, claims: some Encodable, key: DeviceKey) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let signingInput =
            Base64URL.encode(try encoder.encode(header)) + "." + Base64URL.encode(try encoder.encode(claims))
        let signature: Data
        do {
            signature = try key.signRS256(Data(signingInput.utf8))
        } catch {
            throw AuthenticatorError(kind: .signing, detail: "\(error)")
        }
        return signingInput + "." + Base64URL.encode(signature)
    }
}

/// The JOSE header of a device JWT. RS256 and no `kid` (SPEC §7.4); DPoP proofs carry `jwk` (RFC 9449 §4.2).
struct DeviceJWTHeader: Encodable {
    var alg = "RS256"
    var typ: String
    var jwk: PublicJWK?
}
