import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
import WardenCore
import WardenTesting
import WardenWire

@testable import WardenServer

/// The e-mail channel (SPEC §6.4): the message, the hosted approval page behind the hosted login, and what
/// the link does once used, unknown or expired.
@Suite("CIBA e-mail approval")
struct BackchannelApprovalTests {
    @Test func theEmailNamesTheClientShowsTheBindingMessageAndDetailsAndLinksToThePage() async throws {
        let fixture = try await BackchannelFixture.make()
        try await fixture.warden.test { http in
            _ = try await fixture.started(http: http)
            let message = try #require(try await fixture.mails().first)
            #expect(message.contains("To: \(fixture.email)"))
            #expect(message.contains("From: no-reply@127.0.0.1"))
            #expect(message.contains("multipart/alternative"))
            #expect(message.contains("text/plain"))
            #expect(message.contains("text/html"))
            let decoded = BackchannelFixture.decodeQuotedPrintable(message)
            #expect(decoded.contains("Payments Agent asks for your approval."))
            #expect(decoded.contains("Binding message: Pay 2500 USD #A-17"))
            // One shared layout of the details (AuthorizationDetailsDisplay): a transfer reads as a transfer.
            let lines = decoded.components(separatedBy: "\r\n")
            #expect(lines.contains("Money transfer"))
            #expect(lines.contains("  Amount:       2500 USD"))
            #expect(lines.contains("  Beneficiary:  Hanna Herwitz"))
            #expect(decoded.contains("<strong>Payments Agent</strong>"))
            #expect(try await fixture.approvalPath().count > "/u/ciba/".count + 40)
        }
        let sent = try await fixture.events("gd_send_email")
        #expect(sent.count == 1)
        #expect(sent.first?.userID == fixture.userID)
    }

    /// The threat model: the link's token is stored only as a hash — also while the hosted login runs (the
    /// login transaction returns to `u/ciba/resume`; the token waits in the browser's cookie).
    @Test func theLinkTokenIsNotStoredInTheClearDuringTheLogin() async throws {
        let fixture = try await BackchannelFixture.make()
        try await fixture.warden.test { http in
            _ = try await fixture.started(http: http)
            let path = try await fixture.approvalPath()
            let token = String(path.dropFirst("/u/ciba/".count))
            var browser = Browser(http)
            let redirect = try await browser.get(path)
            #expect(redirect.status == .found)
            let state = try #require(redirect.headers[.location]?.components(separatedBy: "state=").last)
            let payload = try #require(
                try await fixture.warden.runtime.store.peekArtefact(
                    kind: LoginTransaction.Stage.login.rawValue, hash: SecretHash.sha256Hex(state),
                    now: fixture.warden.clock.now()))
            let transaction = try JSONDecoder().decode([String: String].self, from: Data(payload.utf8))
            #expect(transaction["return_path"] == "/u/ciba/resume")
            #expect(!payload.contains(token))
            // The page is reached all the same, and an unknown cookie leads nowhere.
            #expect(try await fixture.openApproval(&browser, path: path).status == .ok)
            var stranger = Browser(http)
            #expect(try await stranger.get("/u/ciba/resume").status == .notFound)
        }
    }

    @Test func thePageShowsTheConsentDetailsAfterTheHostedLogin() async throws {
        let fixture = try await BackchannelFixture.make()
        try await fixture.warden.test { http in
            _ = try await fixture.started(http: http)
            let path = try await fixture.approvalPath()
            var browser = Browser(http)
            let redirect = try await browser.get(path)
            #expect(redirect.status == .found)
            #expect(redirect.headers[.location]?.hasPrefix("/u/login?state=") == true)
            let page = try await fixture.openApproval(&browser, path: path)
            #expect(page.status == .ok)
            #expect(page.headers[.cacheControl] == "no-store")
            let html = page.text
            #expect(html.contains("Payments Agent"))
            #expect(html.contains("Pay 2500 USD #A-17"))
            #expect(html.contains(fixture.api.identifier))
            #expect(html.contains("<h2>Money transfer</h2>"))
            #expect(html.contains("<dt>Amount</dt><dd>2500 USD</dd>"))
            #expect(html.contains("<dt>Beneficiary</dt><dd>Hanna Herwitz</dd>"))
            #expect(html.contains("value=\"accept\""))
            #expect(html.contains("value=\"deny\""))
            // Viewing does not use the link up.
            #expect(try await browser.get(path).status == .ok)
        }
    }

    @Test func aPostNeedsTheSessionAndItsCSRFToken() async throws {
        let fixture = try await BackchannelFixture.make()
        try await fixture.warden.test { http in
            let (id, path, signedIn, csrf) = try await fixture.openedApproval(http: http)
            var browser = signedIn
            #expect(try await browser.post(path, [("csrf", "forged"), ("action", "accept")]).status == .forbidden)
            #expect(try await browser.post(path, [("action", "accept")]).status == .forbidden)
            var stranger = Browser(http)
            #expect(try await stranger.post(path, [("csrf", csrf), ("action", "accept")]).status == .forbidden)
            #expect(try await browser.post(path, [("csrf", csrf), ("action", "maybe")]).status == .badRequest)
            #expect(try await fixture.stored(id).status == .pending)
            #expect(try await browser.post(path, [("csrf", csrf), ("action", "accept")]).status == .ok)
            #expect(try await fixture.stored(id).status == .approved)
        }
    }

    @Test func aUserBlockedAfterOpeningThePageCannotAnswer() async throws {
        let fixture = try await BackchannelFixture.make()
        try await fixture.warden.test { http in
            let (id, path, signedIn, csrf) = try await fixture.openedApproval(http: http)
            var browser = signedIn
            var record = try #require(try await fixture.warden.runtime.store.user(id: fixture.userID))
            record.user.blocked = true
            try await fixture.warden.runtime.store.updateUser(record)
            let answer = try await browser.post(path, [("csrf", csrf), ("action", "accept")])
            #expect(answer.status == .forbidden)
            #expect(try await fixture.stored(id).status == .pending)
        }
    }

    @Test func anotherUsersSessionIsSentToTheLogin() async throws {
        let fixture = try await BackchannelFixture.make()
        let bob = "bob-\(RandomToken.identifier(prefix: "", length: 6).lowercased())@example.com"
        _ = try await FrontChannelFixture.addUser(fixture.warden, email: bob)
        try await fixture.warden.test { http in
            _ = try await fixture.started(http: http)
            let path = try await fixture.approvalPath()
            var browser = Browser(http)
            let login = try await browser.get(try #require(try await browser.get(path).headers[.location]))
            let signedIn = try await browser.post(
                "/u/login",
                [
                    ("state", try #require(hiddenField("state", in: login.text))),
                    ("csrf", try #require(hiddenField("csrf", in: login.text))), ("username", bob),
                    ("password", FrontChannelFixture.password),
                ])
            #expect(signedIn.headers[.location] == "/u/ciba/resume")
            #expect(try await browser.get("/u/ciba/resume").headers[.location] == path)
            let again = try await browser.get(path)
            #expect(again.status == .found)
            #expect(again.headers[.location]?.hasPrefix("/u/login?state=") == true)
        }
    }

    @Test func aUsedUnknownOrExpiredLinkSaysSo() async throws {
        let fixture = try await BackchannelFixture.make()
        try await fixture.warden.test { http in
            _ = try await fixture.started(http: http)
            let path = try await fixture.approvalPath()
            var browser = Browser(http)
            _ = try await fixture.decide(true, path: path, browser: &browser)
            let used = try await browser.get(path)
            #expect(used.status == .conflict)
            #expect(used.text.contains("already approved or denied"))
            let unknown = try await browser.get("/u/ciba/" + RandomToken.make())
            #expect(unknown.status == .notFound)
            #expect(unknown.text.contains("ask the application to send a new request"))

            _ = try await fixture.started(["binding_message": "Second"], http: http)
            let second = try await fixture.approvalPath(mailCount: 2)
            #expect(second != path)
            fixture.warden.clock.advance(by: 601)
            let expired = try await browser.get(second)
            #expect(expired.status == .gone)
        }
    }

    @Test func aFailedSendIsRetriedWithBackoffAndNeverLosesTheRequest() async throws {
        let fixture = try await BackchannelFixture.make()
        // A file where the outbox folder should be: every write fails.
        try Data("in the way".utf8).write(to: fixture.outbox)
        try await fixture.warden.test { http in
            let id = try await fixture.started(http: http)
            await fixture.warden.runtime.deliveries.waitUntilIdle()
            #expect(try await fixture.stored(id).status == .pending)
            #expect(await fixture.warden.runtime.deliveries.runDue() == 0)
            try FileManager.default.removeItem(at: fixture.outbox)
            fixture.warden.clock.advance(by: DeliveryService.backoff(afterAttempt: 1))
            #expect(await fixture.warden.runtime.deliveries.runDue() == 1)
            #expect(try await fixture.mails().count == 1)
            #expect(await fixture.warden.runtime.deliveries.runDue() == 0)
        }
        #expect(try await fixture.events("gd_send_email").count == 1)
    }
}
