import Foundation

/// Who a CIBA request is for (CIBA Core §7.1 `login_hint`, SPEC §6.1): the `iss_sub` subject identifier of
/// RFC 9493 §3.2.2, sent as `{"format":"iss_sub","iss":ISSUER,"sub":USER_ID}`.
public enum LoginHint: Sendable, Hashable {
    /// The user `subject` (a `user_id`, the `sub` of its tokens) at `issuer` (Warden's issuer identifier).
    case issSub(issuer: String, subject: String)

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
