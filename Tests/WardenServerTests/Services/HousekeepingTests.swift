import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
import WardenCore
import WardenTesting
import WardenWire

@testable import WardenServer

/// SPEC §11: an anonymous visitor leaves no rows behind for good. The housekeeping pass purges the hour-long
/// login transaction of an abandoned `GET /authorize` and the login failures of an unknown address.
@Suite("housekeeping")
struct HousekeepingTests {
    @Test func anAbandonedLoginAndAnUnknownAddressesFailuresArePurged() async throws {
        let fixture = try await FrontChannelFixture.make()
        let warden = fixture.warden
        // In 1970: the pass deletes only what ended before its clock, so no other test's rows on the shared
        // database are touched.
        warden.clock.advance(by: 1000 - warden.clock.now().timeIntervalSince1970)
        let unknown = "nobody-\(RandomToken.identifier(prefix: "", length: 8))@example.com"
        let state = try await warden.test { http in
            var browser = Browser(http)
            let start = try await browser.get(fixture.authorizeURI())
            let location = try #require(start.headers[.location])
            let failed = try await fixture.signIn(&browser, email: unknown, password: "whatever")
            #expect(failed.text.contains("Wrong e-mail address or password."))
            return String(location.dropFirst("/u/login?state=".count))
        }
        let store = warden.runtime.store
        let hash = SecretHash.sha256Hex(state)
        #expect(try await store.peekArtefact(kind: "login_tx", hash: hash, now: warden.clock.now()) != nil)
        let now = warden.clock.now()
        #expect(
            try await store.reserveLoginAttempt(
                userID: "email|" + SecretHash.sha256Hex(unknown.lowercased()), at: now,
                windowStart: now.addingTimeInterval(-PasswordAuthenticator.failureWindow), limit: 10)
                == .reserved(ordinal: 2), "the unknown address's failure is recorded")

        warden.clock.advance(by: LoginTransaction.lifetime + 1)
        await HousekeepingService(runtime: warden.runtime).sweep()
        #expect(try await store.peekArtefact(kind: "login_tx", hash: hash, now: Date(timeIntervalSince1970: 0)) == nil)
        let windowStart = warden.clock.now().addingTimeInterval(-PasswordAuthenticator.failureWindow)
        #expect(
            try await store.purgeBatch(.loginFailures, endedBefore: windowStart, limit: 100) == 0,
            "the pass left no failure of 1970")
    }
}
