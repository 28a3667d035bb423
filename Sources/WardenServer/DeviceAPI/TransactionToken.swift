import Crypto
import Foundation
import WardenCore
import WardenWire

/// The transaction token `txtkn` of SPEC §7.2: a compact JWS (RFC 7515) with `alg: HS256` and
/// `typ: txtkn+jwt` over `{"iss", "tx", "dai", "exp"}`, MAC'd with a key derived from the current RS256
/// signing key (its `kid` in the header, so rotation keeps issued tokens valid while the key is published).
/// Nothing secret is stored, and a device listing its transactions (SPEC §7.5) can be given a token again.
struct TransactionToken: Sendable {
    static let type = "txtkn+jwt"
    static let purpose = "warden device transaction token"

    let keys: KeyManager
    let issuer: String

    /// What a verified token names.
    struct Claims: Equatable {
        var transactionID: String
        var enrollmentID: String
        var expiresAt: Date
    }

    /// A token for `transaction`, valid until its request expires.
    func mint(for transaction: DeviceTransaction) async throws -> String {
        let key = try await keys.currentKey(for: .rs256)
        let header = JSONValue.serializedObject([
            ("alg", .string("HS256")), ("typ", .string(Self.type)), ("kid", .string(key.kid)),
        ])
        let payload = JSONValue.serializedObject([
            ("iss", .string(issuer)), ("tx", .string(transaction.id)), ("dai", .string(transaction.enrollmentID)),
            ("exp", .number(transaction.expiresAt.timeIntervalSince1970.rounded(.up))),
        ])
        let input = Base64URL.encode(Data(header.utf8)) + "." + Base64URL.encode(Data(payload.utf8))
        let mac = HMAC<SHA256>.authenticationCode(
            for: Data(input.utf8), using: key.derivedKey(purpose: Self.purpose))
        return input + "." + Base64URL.encode(Data(mac))
    }

    /// The claims of a token Warden minted with a key it still publishes; `nil` otherwise. Expiry is the
    /// caller's to judge (an expired transaction has its own error, SPEC §7 `transaction_expired`).
    func verify(_ token: String) -> Claims? {
        guard let jws = try? CompactJWS(parsing: token), jws.header["typ"]?.stringValue == Self.type,
            let kid = jws.kid, let key = keys.ring.publishedKey(kid: kid),
            jws.isAuthenticated(by: key.derivedKey(purpose: Self.purpose)),
            jws.payload["iss"]?.stringValue == issuer, let transactionID = jws.payload["tx"]?.stringValue,
            let enrollmentID = jws.payload["dai"]?.stringValue, let exp = jws.numericDate("exp")
        else { return nil }
        return Claims(
            transactionID: transactionID, enrollmentID: enrollmentID,
            expiresAt: Date(timeIntervalSince1970: exp))
    }
}
