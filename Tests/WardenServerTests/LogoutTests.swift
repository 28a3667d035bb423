import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
import WardenCore
import WardenServer
import WardenTesting

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
            _ = try await browser.get("/oidc/logout?client_id=\(fixture.clientID)")
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
            let response = try await browser.get("/oidc/logout?client_id=\(fixture.clientID)\(query)")
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

    @Test func logoutWithoutASessionStillShowsThePage() async throws {
        let fixture = try await FrontChannelFixture.make()
        try await fixture.warden.test { http in
            let response = try await http.execute(uri: "/oidc/logout", method: .get)
            #expect(response.status == .ok)
            #expect(try await fixture.events("slo").isEmpty)
        }
    }
}
