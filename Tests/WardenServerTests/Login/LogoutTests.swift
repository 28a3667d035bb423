import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
import WardenCore
import WardenServer
import WardenTesting
import WardenWire

/// `GET /oidc/logout` (OIDC RP-Initiated Logout 1.0, SPEC §5, §10 `slo`).
@Suite("/oidc/logout")
struct LogoutTests {
    static let signedOut = "https://app.example.com/signed-out"

    /// An ID token for `clientID` signed with the tenant's current RS256 key.
    static func idToken(_ fixture: FrontChannelFixture, clientID: String) async throws -> String {
        let key = try await fixture.warden.runtime.keys.currentKey(for: .rs256)
        let payload = JSONValue.serializedObject([
            ("iss", .string(fixture.warden.runtime.issuer)), ("sub", .string(fixture.userID)),
            ("aud", .string(clientID)), ("iat", .number(0)), ("exp", .number(1)),
        ])
        return try key.sign(payload: payload)
    }

    @Test func aRegisteredPostLogoutRedirectReceivesTheStateAndTheSessionEnds() async throws {
        let fixture = try await FrontChannelFixture.make()
        let hint = try await Self.idToken(fixture, clientID: fixture.clientID)
        try await fixture.warden.test { http in
            var browser = Browser(http)
            _ = try await fixture.signIn(&browser)
            let response = try await browser.get(
                "/oidc/logout?id_token_hint=\(hint)&post_logout_redirect_uri=\(formEncode(Self.signedOut))&state=bye")
            #expect(response.status == .found)
            #expect(response.headers[.location] == Self.signedOut + "?state=bye")
            #expect(browser.cookies[Browser.sessionCookie] == nil)
            #expect(browser.attributes(of: Browser.sessionCookie).contains("max-age=0"))
            let logouts = try await fixture.events("slo")
            #expect(logouts.count == 1)
            #expect(logouts.first?.userID == fixture.userID)
            #expect(logouts.first?.clientID == fixture.clientID)
        }
    }

    @Test func theSessionRecordIsDeletedSoAnOldCookieNoLongerWorks() async throws {
        let fixture = try await FrontChannelFixture.make()
        try await fixture.warden.test { http in
            var browser = Browser(http)
            _ = try await fixture.signIn(&browser)
            let cookie = try #require(browser.cookies[Browser.sessionCookie])
            let page = try await browser.get("/oidc/logout?client_id=\(fixture.clientID)")
            _ = try await Self.confirm(&browser, page)
            let replay = try await http.execute(
                uri: fixture.authorizeURI(["prompt": "none"]), method: .get,
                headers: [.cookie: "\(Browser.sessionCookie)=\(cookie)"])
            #expect(replay.redirectParameters["error"] == "login_required")
        }
    }

    /// Without a post-logout URI, or with one the client did not register, the signed-out page is shown.
    @Test(arguments: [nil, "https://evil.example.com/"] as [String?])
    func otherwiseTheSignedOutPageIsShown(_ redirect: String?) async throws {
        let fixture = try await FrontChannelFixture.make()
        try await fixture.warden.test { http in
            var browser = Browser(http)
            _ = try await fixture.signIn(&browser)
            let query = redirect.map { "&post_logout_redirect_uri=\(formEncode($0))" } ?? ""
            let page = try await browser.get("/oidc/logout?client_id=\(fixture.clientID)\(query)")
            let response = try await Self.confirm(&browser, page)
            #expect(response.status == .ok)
            #expect(response.headers[.location] == nil)
            #expect(response.text.contains("You are signed out"))
            #expect(browser.cookies[Browser.sessionCookie] == nil)
            #expect(try await fixture.events("slo").count == 1)
        }
    }

    @Test func aForgedOrMismatchedHintIsRefused() async throws {
        let fixture = try await FrontChannelFixture.make()
        let hint = try await Self.idToken(fixture, clientID: fixture.clientID)
        let parts = hint.split(separator: ".")
        let forged = parts[0] + "." + Base64URL.encode(Data("{\"aud\":\"other\"}".utf8)) + "." + parts[2]
        try await fixture.warden.test { http in
            for uri in ["/oidc/logout?id_token_hint=\(forged)", "/oidc/logout?id_token_hint=\(hint)&client_id=other"] {
                let response = try await http.execute(uri: uri, method: .get)
                #expect(response.status == .badRequest)
                #expect(response.headers[.location] == nil)
            }
        }
    }

    /// Posts the confirmation form of `page` (its hidden fields) as the browser would.
    static func confirm(_ browser: inout Browser, _ page: TestResponse) async throws -> TestResponse {
        #expect(page.status == .ok)
        #expect(page.text.contains("Do you want to sign out"))
        let fields = ["csrf", "client_id", "post_logout_redirect_uri", "state"].compactMap { name in
            hiddenField(name, in: page.text).map { (name, decodeHTML($0)) }
        }
        return try await browser.post("/oidc/logout", fields)
    }

    /// The few entities Mustache escapes in attribute values.
    static func decodeHTML(_ text: String) -> String {
        text.replacingOccurrences(of: "&#x2F;", with: "/").replacingOccurrences(of: "&#x3D;", with: "=")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&amp;", with: "&")
    }

    /// SPEC §11: without `id_token_hint`, a `GET` (which any page can trigger) only asks; the session ends when
    /// the form is posted with the session's CSRF token, and then the registered redirect gets `state`.
    @Test func withoutAHintTheSessionEndsOnlyAfterTheConfirmation() async throws {
        let fixture = try await FrontChannelFixture.make()
        try await fixture.warden.test { http in
            var browser = Browser(http)
            _ = try await fixture.signIn(&browser)
            let query = "client_id=\(fixture.clientID)&post_logout_redirect_uri=\(formEncode(Self.signedOut))&state=bye"
            let page = try await browser.get("/oidc/logout?" + query)
            #expect(page.status == .ok)
            #expect(page.text.contains("<form method=\"post\" action=\"/oidc/logout\">"))
            #expect(browser.cookies[Browser.sessionCookie] != nil)
            #expect(try await fixture.events("slo").isEmpty)
            let stillSignedIn = try await browser.get(fixture.authorizeURI(["prompt": "none"]))
            #expect(stillSignedIn.redirectParameters["code"] != nil, "the GET did not end the session")

            for csrf in [nil, "forged"] as [String?] {
                let refused = try await browser.post(
                    "/oidc/logout", [("client_id", fixture.clientID)] + (csrf.map { [("csrf", $0)] } ?? []))
                #expect(refused.status == .forbidden)
                #expect(refused.headers[.contentType]?.hasPrefix("text/html") == true)
            }
            #expect(try await fixture.events("slo").isEmpty)

            let done = try await Self.confirm(&browser, try await browser.get("/oidc/logout?" + query))
            #expect(done.status == .found)
            #expect(done.headers[.location] == Self.signedOut + "?state=bye")
            #expect(browser.cookies[Browser.sessionCookie] == nil)
            #expect(try await fixture.events("slo").count == 1)
        }
    }

    @Test func logoutWithoutASessionStillShowsThePage() async throws {
        let fixture = try await FrontChannelFixture.make()
        try await fixture.warden.test { http in
            let response = try await http.execute(uri: "/oidc/logout", method: .get)
            #expect(response.status == .ok)
            #expect(try await fixture.events("slo").isEmpty)
        }
    }
}
