import WardenCore

/// The query parameters of a front-channel request (RFC 6749 §3.1): form-decoded, empty values count as
/// absent, unknown names are ignored by the caller, and repeated names are reported (SPEC §11).
struct QueryParameters: Sendable {
    private var values: [String: String] = [:]
    /// Names that occur more than once.
    private(set) var repeated: Set<String> = []
    /// Every name that occurs, with a value or without (a flag such as `/oidc/logout?federated`).
    private(set) var names: Set<String> = []

    /// Parses `query`; `nil` when it is not valid form encoding (WHATWG URL §5.1).
    init?(_ query: String?) {
        var seen: Set<String> = []
        for pair in (query ?? "").split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = PercentDecoding.decode(parts[0], plusIsSpace: true),
                let value = parts.count > 1 ? PercentDecoding.decode(parts[1], plusIsSpace: true) : ""
            else { return nil }
            if !seen.insert(name).inserted { repeated.insert(name) }
            names.insert(name)
            if !value.isEmpty, values[name] == nil { values[name] = value }
        }
    }

    /// The first non-empty value of `name`.
    subscript(name: String) -> String? { values[name] }
}
