import Foundation
import WardenCore
import WardenWire

/// Checks an access token Warden issued (RFC 9068 §4): signed by a published key of this node under the key's
/// own algorithm, issued by this issuer, for `audience` (any audience when `nil`), unexpired. Shared by the
/// Management API (audience `{issuer}api/v2/`), `/userinfo` (`{issuer}userinfo`) and introspection (any, RFC 7662
/// §2.2); each maps a ``Failure`` to its own error shape.
struct AccessTokenVerifier: Sendable {
    enum Failure: Error {
        case invalid
        case wrongAudience
        case expired
    }

    /// The published keys a token may be signed by.
    let keys: KeyManager
    /// `{issuer}` with its trailing slash: the expected `iss`.
    let issuer: String
    let clock: any WardenClock

    /// A verifier of the tokens `issuer` signed with a published key of `keys`.
    init(keys: KeyManager, issuer: String, clock: any WardenClock) {
        self.keys = keys
        self.issuer = issuer
        self.clock = clock
    }

    func verify(_ token: String, audience: String?) throws(Failure) -> CompactJWS {
        guard let jws = try? CompactJWS(parsing: token), jws.header["typ"]?.stringValue == "at+jwt",
            let kid = jws.kid, let key = keys.ring.publishedKey(kid: kid), jws.alg == key.alg.rawValue,
            jws.isSigned(by: key.verifier)
        else { throw .invalid }
        guard jws.payload["iss"]?.stringValue == issuer, audience.map(jws.audiences.contains) ?? true else {
            throw .wrongAudience
        }
        guard let exp = jws.numericDate("exp"), exp > clock.now().timeIntervalSince1970 else {
            throw .expired
        }
        return jws
    }
}
