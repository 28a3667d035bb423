import Foundation
import WardenClient

/// Signs in through Warden's hosted login page over plain HTTP, as a browser would (SPEC §5): follows the
/// redirects from `/authorize`, posts the login form with its hidden fields (state, CSRF token) and the
/// credentials, accepts a consent page if one comes, keeps the cookies, and stops at the redirect to the
/// application's callback, which it returns without fetching.
///
/// The non-interactive mode of the example, so that a test (or a script) can run the whole flow.
struct HostedLogin: Sendable {
    let transport: any HTTPTransport
    let username: String
    let password: String

    /// The most requests one login takes before giving up.
    static let maximumSteps = 12

    /// The callback URL the flow from `authorizeURL` ends at (the redirect to `redirectURI`).
    func callback(from authorizeURL: URL, redirectURI: URL) async throws -> URL {
        var cookies: [String: String] = [:]
        var request = HTTPRequest(method: "GET", url: authorizeURL)
        var postedCredentials = false
        for _ in 0..<Self.maximumSteps {
            if !cookies.isEmpty {
                request.headers.append(("Cookie", cookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")))
            }
            let response = try await transport.send(request)
            for (name, value) in response.headers where name.lowercased() == "set-cookie" {
                let pair = value.prefix { $0 != ";" }.split(separator: "=", maxSplits: 1)
                if pair.count == 2 { cookies[String(pair[0])] = String(pair[1]) }
            }
            if (300..<400).contains(response.status) {
                guard let location = response.header("Location"),
                    let target = URL(string: location, relativeTo: request.url)?.absoluteURL
                else { throw LoginFailure("a redirect without a Location from \(request.url)") }
                if Self.sameEndpoint(target, redirectURI) { return target }
                request = HTTPRequest(method: "GET", url: target)
                continue
            }
            guard response.status == 200, let form = HTMLForm(html: String(decoding: response.body, as: UTF8.self))
            else { throw LoginFailure("HTTP \(response.status) from \(request.url) in the login flow") }
            var fields = form.hiddenFields
            if form.hasPassword {
                guard !postedCredentials else {
                    throw LoginFailure("the login page came back: wrong e-mail or password")
                }
                postedCredentials = true
                fields += [("username", username), ("password", password)]
            } else if form.buttons.contains(where: { $0 == ("action", "accept") }) {
                fields.append(("action", "accept"))
            } else {
                throw LoginFailure("a page without a login or consent form at \(request.url)")
            }
            guard let action = URL(string: form.action, relativeTo: request.url)?.absoluteURL else {
                throw LoginFailure("the form's action is not a URL: \(form.action)")
            }
            request = HTTPRequest(
                method: "POST", url: action, headers: [("Content-Type", "application/x-www-form-urlencoded")],
                body: Data(formEncoded(fields).utf8))
        }
        throw LoginFailure("no callback after \(Self.maximumSteps) requests")
    }

    /// Same scheme, host, port and path: where the authorization server sends the browser back.
    static func sameEndpoint(_ url: URL, _ endpoint: URL) -> Bool {
        (url.scheme, url.host, url.port, url.path) == (endpoint.scheme, endpoint.host, endpoint.port, endpoint.path)
    }
}

/// The hosted login did not end at the callback.
struct LoginFailure: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = "login failed: " + description
    }
}
