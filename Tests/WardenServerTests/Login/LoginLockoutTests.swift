import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
import WardenCore
import WardenServer
import WardenTesting
import WardenWire

/// SPEC §11 at the hosted login: the lockout count is atomic, and a blocked user is no password oracle.
@Suite("hosted login: atomic lockout, blocked users")
struct LoginLockoutTests {
    /// 30 wrong passwords posted at once on one login transaction: exactly ten reach the hash (ten `fp`), the
    /// tenth failure starts the lock and the other twenty are refused as locked without a check (21 `limit_wc`);
    /// the right password afterwards is refused too.
    @Test func ofThirtyConcurrentWrongPasswordsOnlyTenAreChecked() async throws {
        let fixture = try await FrontChannelFixture.make()
        try await fixture.warden.test { http in
            var browser = Browser(http)
            let start = try await browser.get(fixture.authorizeURI())
            let form = try await browser.get(try #require(start.headers[.location]))
            let pages = try await withThrowingTaskGroup(of: String.self) { group in
                for attempt in 0..<30 {
                    let copy = browser
                    group.addTask {
                        var own = copy
                        let page = try await fixture.submitLogin(
                            &own, form: form, email: fixture.email, password: "wrong-\(attempt)")
                        #expect(page.status == .ok)
                        return page.text
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(try await fixture.events("fp").count == 10)
            #expect(try await fixture.events("limit_wc").count == 21)
            #expect(pages.filter { $0.contains(PasswordAuthenticatorMessages.wrong) }.count == 9)
            #expect(pages.filter { $0.contains(PasswordAuthenticatorMessages.locked) }.count == 21)

            let refused = try await fixture.submitLogin(
                &browser, form: form, email: fixture.email, password: FrontChannelFixture.password)
            #expect(refused.status == .ok)
            #expect(refused.headers[.location] == nil)
            #expect(refused.text.contains(PasswordAuthenticatorMessages.locked))
            #expect(try await fixture.events("limit_wc").count == 22)
            #expect(try await fixture.events("fp").count == 10, "no hash check during the lock")
        }
    }

    /// SPEC §11: ten attempts still being checked fill the window — the right password that comes next is
    /// refused as locked, without a check, before any of them has failed.
    @Test func attemptsInFlightFillTheWindowBeforeTheyFail() async throws {
        let fixture = try await FrontChannelFixture.make()
        let now = fixture.warden.clock.now()
        for _ in 0..<PasswordAuthenticatorLimits.maxFailures {
            _ = try await fixture.warden.runtime.store.reserveLoginAttempt(
                userID: fixture.userID, at: now, windowStart: now.addingTimeInterval(-15 * 60),
                limit: PasswordAuthenticatorLimits.maxFailures)
        }
        try await fixture.warden.test { http in
            var browser = Browser(http)
            let refused = try await fixture.signIn(&browser, password: FrontChannelFixture.password)
            #expect(refused.status == .ok)
            #expect(refused.headers[.location] == nil)
            #expect(refused.text.contains(PasswordAuthenticatorMessages.locked))
            #expect(browser.cookies[Browser.sessionCookie] == nil)
        }
        #expect(try await fixture.events("limit_wc").count == 1)
        #expect(try await fixture.events("s").isEmpty)
    }

    /// SPEC §11: the same page for a blocked user whatever the password, so it does not confirm a password.
    @Test func aBlockedUserSeesTheSameMessageWhateverThePassword() async throws {
        let fixture = try await FrontChannelFixture.make()
        let email = "blocked-\(RandomToken.identifier(prefix: "", length: 6))@example.com"
        let userID = try await FrontChannelFixture.addUser(fixture.warden, email: email, blocked: true)
        try await fixture.warden.test { http in
            var pages: [String] = []
            for password in [FrontChannelFixture.password, "not-the-password"] {
                var browser = Browser(http)
                let response = try await fixture.signIn(&browser, email: email, password: password)
                #expect(response.status == .ok)
                #expect(response.headers[.location] == nil)
                #expect(browser.cookies[Browser.sessionCookie] == nil)
                #expect(response.text.contains(PasswordAuthenticatorMessages.blocked))
                pages.append(
                    response.text.split(separator: "\n")
                        .filter {
                            !$0.contains("name=\"state\"") && !$0.contains("?state=") && !$0.contains("name=\"csrf\"")
                        }
                        .joined(separator: "\n"))
            }
            #expect(pages[0] == pages[1])
            let failures = try await fixture.events("f")
            #expect(failures.count == 2)
            #expect(failures.allSatisfy { $0.userID == userID })
            #expect(try await fixture.events("fp").isEmpty)
        }
    }
}

/// SPEC §5: ten failures in the window.
enum PasswordAuthenticatorLimits {
    static let maxFailures = 10
}

/// The login form's messages (SPEC §5), as the pages show them.
enum PasswordAuthenticatorMessages {
    static let wrong = "Wrong e-mail address or password."
    static let locked = "Too many failed sign-in attempts"
    static let blocked = "This account is blocked."
}
