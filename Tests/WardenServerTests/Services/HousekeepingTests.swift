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

    /// Issue 16 item 3: a purge of many log events goes in batches with pauses between them, so `/readyz` (and
    /// every other request on the database) is answered while it runs, not after it.
    @Test func readyzAnswersWhileALargePurgeRuns() async throws {
        let warden = try await TestWarden.make()
        let store = warden.runtime.store
        let user = "auth0|purge-" + RandomToken.identifier(prefix: "", length: 8)
        let total = HousekeepingService.batchSize * 5
        // In 1970, long past any retention.
        try await store.appendLogs(
            (0..<total).map {
                LogEvent(date: Date(timeIntervalSince1970: 1000 + Double($0)), type: .loginSuccess, userID: user)
            })
        let remaining = { @Sendable in
            try await store.searchLogs(
                LogFilter(terms: ["user_id": [user]]), ascending: true, page: PageRequest(page: 0, perPage: 1)
            ).total
        }
        let midway = try await warden.test { http in
            let sweep = Task { await HousekeepingService(runtime: warden.runtime).sweep() }
            var answeredMidway = 0
            for _ in 0..<100_000 {
                let response = try await http.execute(uri: "/readyz", method: .get)
                #expect(response.status == .ok)
                let left = try await remaining()
                if left == 0 { break }
                if left < total { answeredMidway += 1 }
                // A probe every few milliseconds, as a load balancer's would come: a tight loop of requests and
                // counts would itself starve this 2-core machine's executor when the whole suite runs.
                try await Task.sleep(for: .milliseconds(5))
            }
            await sweep.value
            return answeredMidway
        }
        #expect(midway > 0, "no /readyz answer came between two batches of the purge")
        #expect(try await remaining() == 0)
    }

    /// A purge's batches shrink while a statement holds the database longer than the target, and grow back when
    /// it is quick, between the bounds.
    @Test func batchesFollowTheirDuration() {
        let target = HousekeepingService.batchTarget
        #expect(HousekeepingService.nextBatch(after: 1000, took: target * 3) == 500)
        #expect(HousekeepingService.nextBatch(after: 60, took: target * 3) == HousekeepingService.smallestBatch)
        #expect(HousekeepingService.nextBatch(after: 250, took: target / 4) == 500)
        #expect(HousekeepingService.nextBatch(after: 800, took: target / 4) == HousekeepingService.batchSize)
        #expect(HousekeepingService.nextBatch(after: 400, took: target * 3 / 4) == 400)
    }
}
