import Foundation
import HTTPTypes
import HummingbirdBcrypt
import HummingbirdTesting
import NIOCore
import Testing
import WardenCore
import WardenServer
import WardenTesting
import WardenWire

/// A browser for in-process front-channel tests: keeps the cookies the server sets (SPEC §5) and sends
/// them back, and reads the hidden fields of the hosted forms.
struct Browser {
    /// The SSO cookie's name (SPEC §5).
    static let sessionCookie = "warden_session"

    let http: any TestClientProtocol
    /// Cookie name → value.
    private(set) var cookies: [String: String] = [:]
    /// Every `Set-Cookie` line received, newest last.
    private(set) var setCookieLines: [String] = []

    init(_ http: any TestClientProtocol) {
        self.http = http
    }

    mutating func get(_ uri: String) async throws -> TestResponse {
        remember(try await http.execute(uri: uri, method: .get, headers: cookieHeader, body: nil))
    }

    mutating func post(_ uri: String, _ fields: [(String, String)]) async throws -> TestResponse {
        remember(try await http.postForm(uri, fields, headers: cookieHeader))
    }

    /// Forgets a cookie (as if it were never set or blocked).
    mutating func drop(_ name: String) {
        cookies[name] = nil
    }

    /// The attributes of the last `Set-Cookie` for `name`, lower-cased (`httponly`, `samesite=lax`, …).
    func attributes(of name: String) -> [String] {
        guard let line = setCookieLines.last(where: { $0.hasPrefix(name + "=") }) else { return [] }
        return line.split(separator: ";").dropFirst().map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
    }

    private var cookieHeader: HTTPFields {
        guard !cookies.isEmpty else { return [:] }
        return [.cookie: cookies.map { "\($0.key)=\($0.value)" }.sorted().joined(separator: "; ")]
    }

    private mutating func remember(_ response: TestResponse) -> TestResponse {
        for line in response.headers[values: .setCookie] {
            setCookieLines.append(line)
            let pair = line.split(separator: ";")[0].split(
                separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(pair[0])
            let value = pair.count > 1 ? String(pair[1]) : ""
            cookies[name] = value.isEmpty || line.lowercased().contains("max-age=0") ? nil : value
        }
        return response
    }
}

/// A tenant with a user and a public PKCE client, and helpers to walk the flow.
struct FrontChannelFixture {
    static let password = "s3cret-Passw0rd"
    static let callback = "https://app.example.com/callback"
    static let verifier = "dBjftJeZ4CVP-mJ92K1-Q3rw7bS8jJ2qP0dOaLwz9hB"

    let warden: TestWarden
    let clientID: String
    let email: String
    let userID: String

    static var challenge: String { SecretHash.sha256Base64URL(verifier) }

    /// A fresh tenant; `configureClient` changes the public client, `issuer` the configuration.
    static func make(
        issuer: String = "http://127.0.0.1:8080/", configureClient: (inout Client) -> Void = { _ in }
    ) async throws -> FrontChannelFixture {
        let warden = try await TestWarden.make { $0.issuer = URL(string: issuer)! }
        let client = try await warden.makeClient(grantTypes: [.authorizationCode, .refreshToken]) {
            $0.tokenEndpointAuthMethod = TokenEndpointAuthMethod.none
            $0.appType = .native
            $0.callbacks = [callback]
            $0.allowedLogoutURLs = ["https://app.example.com/signed-out"]
            configureClient(&$0)
        }
        let email = "user-\(RandomToken.identifier(prefix: "", length: 8))@example.com"
        let userID = try await addUser(warden, email: email)
        return FrontChannelFixture(warden: warden, clientID: client.id, email: email, userID: userID)
    }

    /// Stores a user with ``password``.
    static func addUser(_ warden: TestWarden, email: String, blocked: Bool = false) async throws -> String {
        var user = User(
            userID: "auth0|" + RandomToken.identifier(prefix: "", length: 24), email: email,
            createdAt: warden.clock.now())
        user.blocked = blocked
        try await warden.runtime.store.insertUser(UserRecord(user: user, passwordHash: Bcrypt.hash(password, cost: 4)))
        return user.userID
    }

    /// `/authorize?…` with the usual parameters; `changes` adds, replaces (or with `nil` removes) some.
    func authorizeURI(_ changes: [String: String?] = [:]) -> String {
        var parameters: [String: String?] = [
            "response_type": "code", "client_id": clientID, "redirect_uri": Self.callback,
            "scope": "openid profile email", "state": "xyzABC123", "nonce": "n-0S6_WzA2Mj",
            "code_challenge": Self.challenge, "code_challenge_method": "S256",
        ]
        parameters.merge(changes) { $1 }
        let query = parameters.compactMap { name, value in value.map { "\(formEncode(name))=\(formEncode($0))" } }
        return "/authorize?" + query.sorted().joined(separator: "&")
    }

    /// Follows `/authorize` to the login form and posts the credentials; returns the final response.
    func signIn(
        _ browser: inout Browser, _ changes: [String: String?] = [:], email: String? = nil,
        password: String = Self.password
    ) async throws -> TestResponse {
        let start = try await browser.get(authorizeURI(changes))
        #expect(start.status == .found)
        let location = try #require(start.headers[.location])
        #expect(location.hasPrefix("/u/login?state="))
        let form = try await browser.get(location)
        #expect(form.status == .ok)
        return try await submitLogin(&browser, form: form, email: email ?? self.email, password: password)
    }

    /// Posts the login form read from `form`.
    func submitLogin(
        _ browser: inout Browser, form: TestResponse, email: String, password: String
    ) async throws -> TestResponse {
        let html = String(buffer: form.body)
        return try await browser.post(
            "/u/login",
            [
                ("state", try #require(hiddenField("state", in: html))),
                ("csrf", try #require(hiddenField("csrf", in: html))), ("username", email), ("password", password),
            ])
    }

    /// The stored grant of `code`, read without consuming it.
    func storedGrant(code: String) async throws -> AuthorizationCodeGrant {
        let payload = try await warden.runtime.store.peekArtefact(
            kind: AuthorizationCodeGrant.artefactKind, hash: SecretHash.sha256Hex(code), now: warden.clock.now())
        return try JSONDecoder().decode(AuthorizationCodeGrant.self, from: Data(try #require(payload).utf8))
    }

    /// The log events of `type` written so far.
    func events(_ type: String) async throws -> [LogEvent] {
        await warden.flushLogs()
        return try await warden.runtime.store.searchLogs(
            LogFilter(terms: ["type": [type]]), ascending: true, page: PageRequest(page: 0, perPage: 100)
        ).items
    }
}

/// The value of the hidden input `name` in a hosted page.
func hiddenField(_ name: String, in html: String) -> String? {
    guard let range = html.range(of: "name=\"\(name)\" value=\"") else { return nil }
    let rest = html[range.upperBound...]
    return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
}

extension TestResponse {
    /// The query parameters of the `Location` header.
    var redirectParameters: [String: String] {
        guard let location = headers[.location], let components = URLComponents(string: location) else { return [:] }
        return Dictionary(
            (components.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { first, _ in first })
    }

    var text: String { String(buffer: body) }
}
