import Foundation

/// `application/x-www-form-urlencoded` (HTML 5 §4.10.21.7): the login form's body and the query parameter added
/// to a URL.
func formEncoded(_ fields: [(String, String)]) -> String {
    let unreserved = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")
    func encode(_ text: String) -> String { text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text }
    return fields.map { "\(encode($0.0))=\(encode($0.1))" }.joined(separator: "&")
}
