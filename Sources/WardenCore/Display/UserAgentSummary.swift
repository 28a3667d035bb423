import Foundation
public import WardenWire

/// The browser and operating system a `User-Agent` header names, as a sign-in push shows them (SPEC §12: `s` of
/// §7.2 is `{"b": {"n", "v"}, "os": {"n", "v"}}`). Recognises the common browsers by their product tokens, most
/// specific first (Edge and Opera announce Chrome; Chrome announces Safari), and reports a major version only: what a
/// person needs to recognise their own browser, no more.
public struct UserAgentSummary: Sendable, Equatable {
    public struct Product: Sendable, Equatable {
        public var name: String
        public var version: String?

        public init(name: String, version: String?) {
            self.name = name
            self.version = version
        }

        var json: JSONValue {
            var members: [String: JSONValue] = ["n": .string(name)]
            if let version { members["v"] = .string(version) }
            return .object(members)
        }
    }

    public var browser: Product?
    public var os: Product?

    /// The browser tokens, most specific first: (token before `/`, name shown).
    private static let browsers: [(token: String, name: String)] = [
        ("Edg", "Edge"), ("OPR", "Opera"), ("SamsungBrowser", "Samsung Internet"), ("Firefox", "Firefox"),
        ("FxiOS", "Firefox"), ("CriOS", "Chrome"), ("HeadlessChrome", "Chrome"), ("Chromium", "Chromium"),
        ("Chrome", "Chrome"), ("curl", "curl"), ("python-requests", "Python Requests"),
    ]

    /// Parses `header`; unknown parts are `nil`. Text longer than 512 characters is cut first (attacker-controlled).
    public init(_ header: String?) {
        let text = String((header ?? "").prefix(512))
        browser = Self.browser(in: text)
        os = Self.os(in: text)
    }

    /// `s`: `nil` when neither part is known.
    public var source: JSONValue? {
        guard browser != nil || os != nil else { return nil }
        var members: [String: JSONValue] = [:]
        if let browser { members["b"] = browser.json }
        if let os { members["os"] = os.json }
        return .object(members)
    }

    private static func browser(in text: String) -> Product? {
        for (token, name) in browsers {
            if let version = version(after: token + "/", in: text) { return Product(name: name, version: version) }
        }
        // Safari names its version in `Version/…`; every WebKit browser says `Safari/`.
        if text.contains("Safari/") {
            return Product(name: "Safari", version: version(after: "Version/", in: text))
        }
        return nil
    }

    private static func os(in text: String) -> Product? {
        if let version = version(after: "Windows NT ", in: text) {
            let names = ["10.0": "10", "6.3": "8.1", "6.2": "8", "6.1": "7"]
            return Product(name: "Windows", version: names[version] ?? version)
        }
        if let version = version(after: "iPhone OS ", in: text) ?? version(after: "CPU OS ", in: text) {
            return Product(name: "iOS", version: version)
        }
        if let version = version(after: "Android ", in: text) { return Product(name: "Android", version: version) }
        if let version = version(after: "Mac OS X ", in: text) { return Product(name: "macOS", version: version) }
        if text.contains("CrOS") { return Product(name: "ChromeOS", version: nil) }
        if text.contains("Linux") { return Product(name: "Linux", version: nil) }
        return nil
    }

    /// The major version (digits) right after `marker`, or `nil` when `marker` is absent or not followed by one.
    private static func version(after marker: String, in text: String) -> String? {
        guard let range = text.range(of: marker) else { return nil }
        let digits = text[range.upperBound...].prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty else { return nil }
        // `Windows NT 10.0` and `6.1` are kept whole: they name the release.
        if marker == "Windows NT " {
            let rest = text[range.upperBound...].prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
            return String(rest)
        }
        return String(digits)
    }
}
