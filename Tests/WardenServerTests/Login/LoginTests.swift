import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
import WardenCore
import WardenServer
import WardenTesting
import WardenWire

/// The hosted login form (SPEC §5, §10): failures that never tell which of user or password was wrong, the
/// lock after ten failures, CSRF, the SSO cookie's attributes.
@Suite("hosted login")
struct LoginTests {
    @Test func wrongPasswordAndUnknownUserShowTheSameMessage() async throws {
        let fixture = try await FrontChannelFixture.make()
        try await fixture.warden.test { http in
            var browser = Browser(http)
            let wrongPassword = try await fixture.signIn(&browser, password: "not-the-password")
            var second = Browser(http)
            let unknownUser = try await fixture.signIn(&second, email: "nobody@example.com")
            for response in [wrongPassword, unknownUser] {
                #expect(response.status == .ok)
                #expect(response.headers[.location] == nil)
                #expect(response.text.contains("Wrong e-mail address or password."))
                #expect(hiddenField("state", in: response.text) != nil)
            }
            #expect(
                wrongPassword.text.replacingOccurrences(of: fixture.email, with: "E")
                    .split(separator: "\n").filter {
                        !$0.contains("name=\"state\"") && !$0.contains("?state=") && !$0.contains("name=\"csrf\"")
                    }
                    == unknownUser.text.replacingOccurrences(of: "nobody@example.com", with: "E")
                    .split(separator: "\n").filter {
                        !$0.contains("name=\"state\"") && !$0.contains("?state=") && !$0.contains("name=\"csrf\"")
                    })
            let wrong = try await fixture.events("fp")
            #expect(wrong.count == 1)
            #expect(wrong.first?.userID == fixture.userID)
            #expect(wrong.first?.userName == fixture.email)
            let unknown = try await fixture.events("fu")
            #expect(unknown.count == 1)
            #expect(unknown.first?.userName == "nobody@example.com")
            #expect(try await fixture.events("s").isEmpty)
        }
    }

    @Test func theFormCanBeRetriedAfterAFailure() async throws {
        let fixture = try await FrontChannelFixture.make()
        try await fixture.warden.test { http in
            var browser = Browser(http)
            let failed = try await fixture.signIn(&browser, password: "wrong")
            let response = try await fixture.submitLogin(
                &browser, form: failed, email: fixture.email, password: FrontChannelFixture.password)
            #expect(response.redirectParameters["code"] != nil)
        }
    }

    @Test func tenFailuresLockPasswordLoginForFifteenMinutes() async throws {
        let fixture = try await FrontChannelFixture.make()
        try await fixture.warden.test { http in
            var browser = Browser(http)
            var form = try await fixture.signIn(&browser, password: "wrong-0")
            for attempt in 1..<10 {
                form = try await fixture.submitLogin(
                    &browser, form: form, email: fixture.email, password: "wrong-\(attempt)")
            }
            #expect(form.text.contains("Too many failed sign-in attempts"))
            #expect(try await fixture.events("limit_wc").count == 1)
            #expect(try await fixture.events("fp").count == 10)

            let refused = try await fixture.submitLogin(
                &browser, form: form, email: fixture.email, password: FrontChannelFixture.password)
            #expect(refused.status == .ok)
            #expect(refused.headers[.location] == nil)
            #expect(refused.text.contains("Too many failed sign-in attempts"))
            let locked = try await fixture.events("limit_wc")
            #expect(locked.count == 2)
            #expect(locked.allSatisfy { $0.userID == fixture.userID })
            #expect(try await fixture.events("fp").count == 10)

            fixture.warden.clock.advance(by: 15 * 60 + 1)
            let later = try await fixture.submitLogin(
                &browser, form: refused, email: fixture.email, password: FrontChannelFixture.password)
            #expect(later.redirectParameters["code"] != nil)
        }
    }

    @Test func failuresOutsideTheWindowDoNotLock() async throws {
        let fixture = try await FrontChannelFixture.make()
        try await fixture.warden.test { http in
            var browser = Browser(http)
            var form = try await fixture.signIn(&browser, password: "wrong")
            for _ in 1..<10 {
                fixture.warden.clock.advance(by: 120)
                form = try await fixture.submitLogin(&browser, form: form, email: fixture.email, password: "wrong")
            }
            #expect(form.text.contains("Wrong e-mail address or password."))
            #expect(try await fixture.events("limit_wc").isEmpty)
        }
    }

    @Test func aBlockedUserCannotSignIn() async throws {
        let fixture = try await FrontChannelFixture.make()
        let email = "blocked-\(RandomToken.identifier(prefix: "", length: 6))@example.com"
        _ = try await FrontChannelFixture.addUser(fixture.warden, email: email, blocked: true)
        try await fixture.warden.test { http in
            var browser = Browser(http)
            let response = try await fixture.signIn(&browser, email: email)
            #expect(response.status == .ok)
            #expect(response.headers[.location] == nil)
            #expect(browser.cookies[Browser.sessionCookie] == nil)
            #expect(try await fixture.events("f").count == 1)
        }
    }

    @Test func aPostWithoutTheCSRFTokenOrCookieIsRefused() async throws {
        let fixture = try await FrontChannelFixture.make()
        try await fixture.warden.test { http in
            var browser = Browser(http)
            let start = try await browser.get(fixture.authorizeURI())
            let form = try await browser.get(try #require(start.headers[.location])).text
            let state = try #require(hiddenField("state", in: form))
            let csrf = try #require(hiddenField("csrf", in: form))
            let credentials = [("username", fixture.email), ("password", FrontChannelFixture.password)]

            let withoutToken = try await browser.post("/u/login", [("state", state)] + credentials)
            #expect(withoutToken.status == .forbidden)
            #expect(withoutToken.text.contains("The form could not be verified."))
            let wrongToken = try await browser.post("/u/login", [("state", state), ("csrf", "x" + csrf)] + credentials)
            #expect(wrongToken.status == .forbidden)
            browser.drop("warden_csrf")
            let withoutCookie = try await browser.post("/u/login", [("state", state), ("csrf", csrf)] + credentials)
            #expect(withoutCookie.status == .forbidden)
            #expect(try await fixture.events("s").isEmpty)
        }
    }

    @Test func theCSRFCookieIsStrict() async throws {
        let fixture = try await FrontChannelFixture.make()
        try await fixture.warden.test { http in
            var browser = Browser(http)
            let start = try await browser.get(fixture.authorizeURI())
            _ = try await browser.get(try #require(start.headers[.location]))
            let attributes = browser.attributes(of: "warden_csrf")
            #expect(attributes.contains("httponly"))
            #expect(attributes.contains("samesite=strict"))
            #expect(attributes.contains("path=/u/"))
        }
    }

    @Test func anExpiredOrUnknownTransactionShowsAPage() async throws {
        let fixture = try await FrontChannelFixture.make()
        try await fixture.warden.test { http in
            var browser = Browser(http)
            let start = try await browser.get(fixture.authorizeURI())
            let location = try #require(start.headers[.location])
            let form = try await browser.get(location)
            fixture.warden.clock.advance(by: 3601)
            let expired = try await browser.get(location)
            #expect(expired.status == .badRequest)
            #expect(expired.text.contains("Go back to the application and sign in again."))
            let posted = try await fixture.submitLogin(
                &browser, form: form, email: fixture.email, password: FrontChannelFixture.password)
            #expect(posted.status == .badRequest)
            #expect(try await browser.get("/u/login?state=nonsense").status == .badRequest)
            #expect(try await browser.get("/u/login").status == .badRequest)
        }
    }

    @Test func aCompletedTransactionCannotBeReplayed() async throws {
        let fixture = try await FrontChannelFixture.make()
        try await fixture.warden.test { http in
            var browser = Browser(http)
            let start = try await browser.get(fixture.authorizeURI())
            let form = try await browser.get(try #require(start.headers[.location]))
            let first = try await fixture.submitLogin(
                &browser, form: form, email: fixture.email, password: FrontChannelFixture.password)
            #expect(first.redirectParameters["code"] != nil)
            let replay = try await fixture.submitLogin(
                &browser, form: form, email: fixture.email, password: FrontChannelFixture.password)
            #expect(replay.status == .badRequest)
        }
    }

    @Test func theLoginPageIsAPlainFormForPhones() async throws {
        let fixture = try await FrontChannelFixture.make()
        try await fixture.warden.test { http in
            var browser = Browser(http)
            let start = try await browser.get(fixture.authorizeURI())
            let page = try await browser.get(try #require(start.headers[.location]))
            #expect(page.headers[.contentType] == "text/html; charset=utf-8")
            #expect(page.headers[.cacheControl] == "no-store")
            let html = page.text
            #expect(html.contains("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"))
            #expect(html.contains("<p class=\"tenant\">Warden</p>"))
            #expect(html.contains("<form method=\"post\" action=\"/u/login\">"))
            #expect(html.contains("name=\"username\""))
            #expect(html.contains("name=\"password\""))
            #expect(!html.contains("<script"))
        }
    }

    /// `HttpOnly`, `SameSite=Lax`, `Path=/`, and `Secure` unless the issuer is plain HTTP (SPEC §5).
    @Test(arguments: [("http://127.0.0.1:8080/", false), ("https://auth.example.com/", true)])
    func theSessionCookieHasTheRequiredAttributes(issuer: String, secure: Bool) async throws {
        let fixture = try await FrontChannelFixture.make(issuer: issuer)
        try await fixture.warden.test { http in
            var browser = Browser(http)
            let response = try await fixture.signIn(&browser)
            #expect(response.redirectParameters["code"] != nil)
            #expect(browser.cookies[Browser.sessionCookie] != nil)
            let attributes = browser.attributes(of: Browser.sessionCookie)
            #expect(attributes.contains("httponly"))
            #expect(attributes.contains("samesite=lax"))
            #expect(attributes.contains("path=/"))
            #expect(attributes.contains("secure") == secure)
        }
    }
}
