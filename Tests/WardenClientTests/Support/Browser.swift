import Foundation
import Testing
import WardenClient
import WardenWire

/// A user's browser over the SDK's transport: keeps cookies, reads the hosted login form's hidden fields and
/// posts it (SPEC §5), and follows redirects until one leaves for the application's callback.
struct Browser {
    let transport: any HTTPTransport
    let origin: URL
    private(set) var cookies: [String: String] = [:]

    init(transport: any HTTPTransport, origin: URL) {
        self.transport = transport
        self.origin = origin
    }

    /// Opens `url` and logs in as `email` on the hosted form; returns the callback URL the server redirects to.
    mutating func logIn(at url: URL, email: String, password: String = LiveWarden.password) async throws -> URL {
        var response = try await send("GET", url)
        let formURL = try location(of: response)
        let form = try await send("GET", formURL)
        let html = String(decoding: form.body, as: UTF8.self)
        let fields = [
            ("state", try #require(Self.hiddenField("state", in: html))),
            ("csrf", try #require(Self.hiddenField("csrf", in: html))), ("username", email), ("password", password),
        ]
        let body = fields.map { "\(Self.encode($0.0))=\(Self.encode($0.1))" }.joined(separator: "&")
        response = try await send(
            "POST", try #require(URL(string: "/u/login", relativeTo: origin)?.absoluteURL), body: Data(body.utf8))
        return try await follow(response)
    }

    /// Opens `url` (e.g. a web client's `/authorize` with a session transfer token) and follows redirects.
    mutating func open(_ url: URL, cookie: (String, String)? = nil) async throws -> URL {
        if let cookie { cookies[cookie.0] = cookie.1 }
        return try await follow(try await send("GET", url))
    }

    /// Follows redirects on the server until one points elsewhere (the client's callback, or the login form).
    private mutating func follow(_ response: HTTPResponse) async throws -> URL {
        var response = response
        for _ in 0..<10 {
            let next = try location(of: response)
            guard next.host == origin.host, next.port == origin.port, !next.path.hasPrefix("/u/login") else {
                return next
            }
            response = try await send("GET", next)
        }
        throw BrowserError.tooManyRedirects
    }

    private func location(of response: HTTPResponse) throws -> URL {
        guard (300..<400).contains(response.status), let location = response.header("Location"),
            let url = URL(string: location, relativeTo: origin)?.absoluteURL
        else { throw BrowserError.noRedirect(response.status, String(decoding: response.body, as: UTF8.self)) }
        return url
    }

    private mutating func send(_ method: String, _ url: URL, body: Data? = nil) async throws -> HTTPResponse {
        var headers: [(String, String)] = []
        if !cookies.isEmpty {
            headers.append(("Cookie", cookies.map { "\($0.key)=\($0.value)" }.sorted().joined(separator: "; ")))
        }
        if body != nil { headers.append(("Content-Type", "application/x-www-form-urlencoded")) }
        let response = try await transport.send(HTTPRequest(method: method, url: url, headers: headers, body: body))
        for (name, value) in response.headers where name.lowercased() == "set-cookie" {
            let pair = value.split(separator: ";")[0].split(separator: "=", maxSplits: 1)
            if pair.count == 2 { cookies[String(pair[0])] = String(pair[1]) }
        }
        return response
    }

    static func hiddenField(_ name: String, in html: String) -> String? {
        guard let range = html.range(of: "name=\"\(name)\" value=\"") else { return nil }
        let rest = html[range.upperBound...]
        return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
    }

    private static func encode(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}

enum BrowserError: Error {
    case noRedirect(Int, String)
    case tooManyRedirects
}
