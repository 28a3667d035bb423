import Foundation

/// `application/x-www-form-urlencoded` (HTML 5 §4.10.21.7, RFC 6749 Appendix B) and URL query building.
enum FormEncoding {
    /// The characters left as they are; everything else is percent-encoded.
    private static let unreserved: CharacterSet = {
        var allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        allowed.insert(charactersIn: "-._~")
        return allowed
    }()

    /// One name or value, percent-encoded.
    static func encode(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }

    /// `name=value&…`, in the order given.
    static func encode(_ fields: [(String, String)]) -> String {
        fields.map { "\(encode($0.0))=\(encode($0.1))" }.joined(separator: "&")
    }

    /// `url` with `fields` appended to its query.
    static func url(_ url: URL, adding fields: [(String, String)]) -> URL {
        let separator = url.query == nil ? "?" : "&"
        return URL(string: url.absoluteString + separator + encode(fields)) ?? url
    }
}
