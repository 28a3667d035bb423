import Foundation

/// The first form of a hosted page (Warden's login and consent pages, SPEC §5), read the way a browser submits
/// it: its action, its hidden fields, whether it asks for a password, and its named submit buttons.
struct HTMLForm: Sendable {
    var action: String
    var hiddenFields: [(String, String)]
    var hasPassword: Bool
    /// `(name, value)` of each `<button name=… value=…>`.
    var buttons: [(String, String)]

    /// The first `<form>…</form>` of `html`, or `nil` when the page has none.
    init?(html: String) {
        guard let start = html.range(of: "<form"),
            let end = html.range(of: "</form>", range: start.upperBound..<html.endIndex)
        else { return nil }
        let form = String(html[start.lowerBound..<end.upperBound])
        let formTag = Self.tags("form", in: form).first ?? [:]
        action = formTag["action"] ?? ""
        let inputs = Self.tags("input", in: form)
        hiddenFields = inputs.filter { $0["type"] == "hidden" }.compactMap { input in
            input["name"].map { ($0, input["value"] ?? "") }
        }
        hasPassword = inputs.contains { $0["type"] == "password" }
        buttons = Self.tags("button", in: form).compactMap { button in
            button["name"].map { ($0, button["value"] ?? "") }
        }
    }

    /// The attributes of every `<name …>` tag in `html`, values unescaped.
    private static func tags(_ name: String, in html: String) -> [[String: String]] {
        let tag = try! Regex("<\(name)\\b([^>]*)>")
        let attribute = try! Regex(#"([a-zA-Z-]+)="([^"]*)""#)
        return html.matches(of: tag).map { match in
            let text = String(html[match.range])
            var attributes: [String: String] = [:]
            for found in text.matches(of: attribute) {
                guard let key = found.output[1].substring, let value = found.output[2].substring else { continue }
                attributes[String(key).lowercased()] = unescape(String(value))
            }
            return attributes
        }
    }

    /// HTML character references as the page's template writes them (`&amp;`, `&quot;`, `&#39;`, `&lt;`, `&gt;`).
    private static func unescape(_ text: String) -> String {
        [("&quot;", "\""), ("&#39;", "'"), ("&lt;", "<"), ("&gt;", ">"), ("&amp;", "&")].reduce(text) {
            $0.replacingOccurrences(of: $1.0, with: $1.1)
        }
    }
}
