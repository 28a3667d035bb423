import Foundation

/// Who a CIBA request is for (CIBA Core §7.1 `login_hint`, SPEC §6.1): the `iss_sub` subject identifier of
/// RFC 9493 §3.2.2, sent as `{"format":"iss_sub","iss":ISSUER,"sub":USER_ID}`.
///
/// The client SDK builds it with ``issSub(issuer:subject:)`` and sends ``parameterValue``; the server reads it
/// back with ``init(parsing:issuer:)``.
public enum LoginHint: Sendable, Hashable {
    /// The user `subject` (a `user_id`, the `sub` of its tokens) at `issuer` (Warden's issuer identifier).
    case issSub(issuer: String, subject: String)

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
        self = .issSub(issuer: iss, subject: sub)
    }

    /// The issuer identifier (`iss`).
    public var issuer: String {
        switch self {
        case .issSub(let issuer, _): issuer
        }
    }

    /// The user id (`sub`).
    public var subject: String {
        switch self {
        case .issSub(_, let subject): subject
        }
    }

    /// The `login_hint` parameter value.
    public var parameterValue: String {
        switch self {
        case .issSub(let issuer, let subject):
            let object: JSONValue = .object([
                "format": .string("iss_sub"), "iss": .string(issuer), "sub": .string(subject),
            ])
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            return String(decoding: (try? encoder.encode(object)) ?? Data(), as: UTF8.self)
        }
    }
}
