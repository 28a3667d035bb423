import class Foundation.JSONDecoder
import class Foundation.JSONEncoder

extension AuthorizationDetails {
    /// The entries of `details` whose `type` member is `type` (RFC 9396 §2), decoded as `T`.
    ///
    /// Entries of other types, and entries of this type that do not decode as `T`, are left out. Shared by the
    /// SDKs that read granted or requested details: an authenticator app showing a consent (SPEC §7.3) and a
    /// resource server enforcing a token's details (RFC 9396 §9, SPEC §13).
    public static func decode<T: Decodable>(_ details: [JSONValue], ofType type: String, as _: T.Type) -> [T] {
        let encoder = JSONEncoder()
        let decoder = JSONDecoder()
        return details.compactMap { entry in
            guard entry["type"]?.stringValue == type, let data = try? encoder.encode(entry) else { return nil }
            return try? decoder.decode(T.self, from: data)
        }
    }
}
