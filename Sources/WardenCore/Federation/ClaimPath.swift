import WardenWire

/// A dotted path into a JSON object (`profile.display_name`), as `attribute_map` templates and the `oauth2`
/// `fieldsMap` and `user_id_field` name claims (SPEC §15).
///
/// Claim names may themselves hold dots (`https://example.com/roles`), so a member named by the whole rest of the
/// path wins over descending into a member named by a prefix of it.
struct ClaimPath: Sendable, Hashable {
    let text: String

    /// `nil` for an empty path or one with an empty segment.
    init?(_ text: String) {
        guard !text.isEmpty, !text.split(separator: ".", omittingEmptySubsequences: false).contains(where: \.isEmpty)
        else { return nil }
        self.text = text
    }

    /// The value at this path in `object`.
    func value(in object: [String: JSONValue]) -> JSONValue? {
        Self.lookup(text[...], in: object)
    }

    private static func lookup(_ path: Substring, in object: [String: JSONValue]) -> JSONValue? {
        if let value = object[String(path)] { return value }
        var start = path.startIndex
        while let dot = path[start...].firstIndex(of: ".") {
            if case .object(let inner)? = object[String(path[..<dot])],
                let value = lookup(path[path.index(after: dot)...], in: inner)
            {
                return value
            }
            start = path.index(after: dot)
        }
        return nil
    }
}
