import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
import WardenCore
import WardenServer
import WardenTesting
import WardenWire

/// A tenant for CIBA (SPEC §6): a confidential CIBA client, an API with the `money_transfer` RAR type, a user
/// with a password, and approval e-mails written to a fresh outbox folder.
struct BackchannelFixture {
    static let details =
        #"[{"type":"money_transfer","instructedAmount":{"amount":2500,"currency":"USD"},"beneficiary":"Hanna Herwitz"}]"#

    let warden: TestWarden
    let client: (id: String, secret: String)
    let api: ResourceServer
    let userID: String
    let email: String
    let outbox: URL

    static func make(
        configureClient: (inout Client) -> Void = { _ in }, configureAPI: (inout ResourceServer) -> Void = { _ in }
    ) async throws -> BackchannelFixture {
        let outbox = FileManager.default.temporaryDirectory.appendingPathComponent(
            "warden-outbox-" + RandomToken.identifier(prefix: "", length: 12))
        let warden = try await TestWarden.make { $0.outboxDirectory = outbox.path }
        let client = try await warden.makeClient(grantTypes: [.ciba, .refreshToken]) {
            $0.name = "Payments Agent"
            $0.backchannelTokenDeliveryMode = .poll
            configureClient(&$0)
        }
        let api = try await warden.makeAPI(scopes: ["read:balance", "transfer:funds"]) {
            $0.authorizationDetails = [.init(type: "money_transfer")]
            $0.allowOfflineAccess = true
            configureAPI(&$0)
        }
        let email = "ciba-\(RandomToken.identifier(prefix: "", length: 8).lowercased())@example.com"
        let userID = try await FrontChannelFixture.addUser(warden, email: email)
        return BackchannelFixture(
            warden: warden, client: client, api: api, userID: userID, email: email, outbox: outbox)
    }

    /// The `iss_sub` login hint of `subject`.
    func loginHint(_ subject: String? = nil, issuer: String? = nil) -> String {
        #"{"format":"iss_sub","iss":"\#(issuer ?? warden.runtime.issuer)","sub":"\#(subject ?? userID)"}"#
    }

    /// `POST /bc-authorize` with a valid e-mail-channel request; `changes` adds, replaces or (`nil`) removes.
    func start(
        _ changes: [String: String?] = [:], http: some TestClientProtocol, credentials: [(String, String)]? = nil
    ) async throws -> TestResponse {
        var parameters: [String: String?] = [
            "login_hint": loginHint(), "scope": "openid offline_access transfer:funds",
            "binding_message": "Pay 2500 USD #A-17", "audience": api.identifier,
            "authorization_details": Self.details, "requested_expiry": "600",
        ]
        parameters.merge(changes) { $1 }
        let fields =
            (credentials ?? [("client_id", client.id), ("client_secret", client.secret)])
            + parameters.compactMap { name, value in value.map { (name, $0) } }.sorted { $0.0 < $1.0 }
        return try await http.postForm("/bc-authorize", fields)
    }

    /// A started request's `auth_req_id`.
    func started(
        _ changes: [String: String?] = [:], http: some TestClientProtocol,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> String {
        let response = try await start(changes, http: http)
        #expect(response.status == .ok, "\(response.json)", sourceLocation: sourceLocation)
        return try #require(response.json["auth_req_id"]?.stringValue, sourceLocation: sourceLocation)
    }

    /// A CIBA poll at `/oauth/token`.
    func poll(
        _ authRequestID: String, http: some TestClientProtocol, credentials: [(String, String)]? = nil
    ) async throws -> TestResponse {
        try await http.postForm(
            "/oauth/token",
            [("grant_type", GrantType.ciba.rawValue), ("auth_req_id", authRequestID)]
                + (credentials ?? [("client_id", client.id), ("client_secret", client.secret)]))
    }

    /// The stored request of `authRequestID`.
    func stored(_ authRequestID: String) async throws -> BackchannelRequest {
        try #require(
            try await warden.runtime.store.backchannelRequest(id: BackchannelRequest.ID(authRequestID: authRequestID)))
    }

    /// The approval e-mails in the outbox, oldest first (waits up to 5 s for at least `count`).
    func mails(count: Int = 1) async throws -> [String] {
        for _ in 0..<100 {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: outbox.path)) ?? []
            let messages = names.filter { $0.hasSuffix(".eml") }.sorted()
            if messages.count >= count {
                return try messages.map { try String(contentsOf: outbox.appendingPathComponent($0), encoding: .utf8) }
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        Issue.record("expected \(count) e-mail(s) in \(outbox.path)")
        return []
    }

    /// The approval link's path (`/u/ciba/…`) in the newest e-mail.
    func approvalPath(mailCount: Int = 1) async throws -> String {
        let message = try #require(try await mails(count: mailCount).last)
        let decoded = Self.decodeQuotedPrintable(message)
        let prefix = warden.runtime.issuer + "u/ciba/"
        let start = try #require(decoded.range(of: prefix))
        let token = decoded[start.upperBound...].prefix { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }
        return "/u/ciba/" + token
    }

    /// Logs in through the hosted login from the approval link and returns the approval page.
    func openApproval(_ browser: inout Browser, path: String) async throws -> TestResponse {
        let first = try await browser.get(path)
        guard first.status == .found else { return first }
        let form = try await browser.get(try #require(first.headers[.location]))
        let html = form.text
        let login = try await browser.post(
            "/u/login",
            [
                ("state", try #require(hiddenField("state", in: html))),
                ("csrf", try #require(hiddenField("csrf", in: html))), ("username", email),
                ("password", FrontChannelFixture.password),
            ])
        #expect(login.status == .seeOther)
        // The login transaction returns to u/ciba/resume (the token is not stored), which sends the browser
        // back to the link its cookie holds.
        #expect(login.headers[.location] == "/u/ciba/resume")
        let resume = try await browser.get("/u/ciba/resume")
        #expect(resume.status == .found)
        #expect(resume.headers[.location] == path)
        return try await browser.get(path)
    }

    /// Starts a request, signs in through its e-mailed link, and returns what posting the page's form needs.
    func openedApproval(
        http: any TestClientProtocol
    ) async throws -> (id: String, path: String, browser: Browser, csrf: String) {
        let id = try await started(http: http)
        let path = try await approvalPath()
        var browser = Browser(http)
        let page = try await openApproval(&browser, path: path)
        return (id, path, browser, try #require(hiddenField("csrf", in: page.text)))
    }

    /// Approves or denies through the page at `path`.
    func decide(_ approve: Bool, path: String, browser: inout Browser) async throws -> TestResponse {
        let page = try await openApproval(&browser, path: path)
        #expect(page.status == .ok)
        let csrf = try #require(hiddenField("csrf", in: page.text))
        return try await browser.post(path, [("csrf", csrf), ("action", approve ? "accept" : "deny")])
    }

    /// The events of `type` written so far.
    func events(_ type: String) async throws -> [LogEvent] {
        await warden.flushLogs()
        return try await warden.runtime.store.searchLogs(
            LogFilter(terms: ["type": [type]]), ascending: true, page: PageRequest(page: 0, perPage: 100)
        ).items
    }

    /// RFC 2045 §6.7 decoding, enough to read links: soft line breaks removed, `=XX` decoded.
    static func decodeQuotedPrintable(_ text: String) -> String {
        let joined = text.replacingOccurrences(of: "=\r\n", with: "").replacingOccurrences(of: "=\n", with: "")
        var bytes: [UInt8] = []
        var iterator = Array(joined.utf8).makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "=") else {
                bytes.append(byte)
                continue
            }
            let pair = [iterator.next(), iterator.next()].compactMap { $0 }
            if pair.count == 2, let value = UInt8(String(decoding: pair, as: UTF8.self), radix: 16) {
                bytes.append(value)
            } else {
                bytes.append(byte)
                bytes.append(contentsOf: pair)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
