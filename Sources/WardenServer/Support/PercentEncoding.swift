import Foundation

/// Percent-encoding for query strings and form bodies that Warden writes (RFC 3986 §2.3).
enum PercentEncoding {
    private static let unreservedCharacters = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// Percent-encodes everything but RFC 3986 unreserved characters: safe in a query, a form body
    /// (`application/x-www-form-urlencoded`, RFC 6749 Appendix B) and a path segment.
    static func unreserved(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreservedCharacters) ?? text
    }
}
