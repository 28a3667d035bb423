import struct Foundation.Data
import class Foundation.JSONSerialization

/// The `login_hint` of a CIBA request in the `iss_sub` format (CIBA Core §7.1, RFC 9493 §3.2.2, SPEC §6.1):
/// `{"format":"iss_sub","iss":ISSUER,"sub":USER_ID}`.
public struct LoginHint: Sendable, Equatable {
    /// The user id.
    public var subject: String

    public init(subject: String) { self.subject = subject }

    /// Parses `value`; `invalid_request` unless it is an `iss_sub` object whose `iss` is `issuer`.
    public init(parsing value: String, issuer: String) throws(OAuthError) {
        guard let object = try? JSONSerialization.jsonObject(with: Data(value.utf8)) as? [String: Any],
            object["format"] as? String == "iss_sub", let iss = object["iss"] as? String,
            let sub = object["sub"] as? String, !sub.isEmpty
        else {
            throw .invalidRequest(
                "login_hint must be a JSON object {\"format\":\"iss_sub\",\"iss\":ISSUER,\"sub\":USER_ID}")
        }
        guard iss == issuer else { throw .invalidRequest("login_hint iss must be \(issuer)") }
        subject = sub
    }
}
