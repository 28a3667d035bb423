import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
import WardenCore
import WardenTesting
import WardenWire

@testable import WardenServer

/// `POST /api/v2/guardian/enrollments/ticket` and the ticket page `GET /u/guardian/enroll` (SPEC §7.1).
@Suite("Guardian enrolment tickets")
struct GuardianTicketTests {
    static func user(_ warden: TestWarden) async throws -> (id: String, email: String) {
        let email = "device-\(RandomToken.identifier(prefix: "", length: 8).lowercased())@example.com"
        return (try await FrontChannelFixture.addUser(warden, email: email), email)
    }

    @Test func aTicketLinksToAPageWithTheQRCodeTheURIAndTheCommand() async throws {
        let warden = try await TestWarden.make()
        let (userID, email) = try await Self.user(warden)
        try await warden.test { http in
            let session = try await ManagementSession.make(warden, http)
            let ticket = try await session.expect(
                .ok, .post, "guardian/enrollments/ticket", json: ["user_id": .string(userID)])
            let id = try #require(ticket["ticket_id"]?.stringValue)
            let url = try #require(ticket["ticket_url"]?.stringValue)
            #expect(url == "http://127.0.0.1:8080/u/guardian/enroll?ticket=" + id)
            let page = try await http.execute(uri: "/u/guardian/enroll?ticket=" + id, method: .get)
            #expect(page.status == .ok)
            #expect(page.headers[.cacheControl] == "no-store")
            let html = page.text
            #expect(html.contains("<svg"))
            #expect(html.contains(email))
            let prefix = "otpauth://totp/Warden:" + email.replacingOccurrences(of: "@", with: "%40") + "?secret="
            #expect(html.contains(prefix))
            #expect(html.contains("&amp;enrollment_tx_id=\(id)&amp;issuer=Warden&amp;id=dev_"))
            #expect(html.contains("&amp;base_url=http%3A%2F%2F127.0.0.1%3A8080%2F&amp;algorithm=sha1&amp;digits=6"))
            // The command quotes the URL (HTML-escaped in the page).
            #expect(html.contains("warden authenticator enroll "))
            #expect(html.contains(url))
            // Viewing does not use the ticket up.
            #expect(try await http.execute(uri: "/u/guardian/enroll?ticket=" + id, method: .get).status == .ok)
        }
    }

    @Test func anUnknownOrExpiredTicketPageSaysSo() async throws {
        let warden = try await TestWarden.make()
        let (userID, _) = try await Self.user(warden)
        try await warden.test { http in
            let unknown = try await http.execute(uri: "/u/guardian/enroll?ticket=nope", method: .get)
            #expect(unknown.status == .notFound)
            #expect(unknown.text.contains("Ask your administrator for a new one."))
            #expect(try await http.execute(uri: "/u/guardian/enroll", method: .get).status == .notFound)
            let session = try await ManagementSession.make(warden, http)
            let ticket = try await session.expect(
                .ok, .post, "guardian/enrollments/ticket", json: ["user_id": .string(userID)])
            warden.clock.advance(by: 7 * 86400 + 1)
            let id = try #require(ticket["ticket_id"]?.stringValue)
            #expect(try await http.execute(uri: "/u/guardian/enroll?ticket=" + id, method: .get).status == .notFound)
        }
    }

    @Test func errorsHaveTheManagementShape() async throws {
        let warden = try await TestWarden.make()
        try await warden.test { http in
            let session = try await ManagementSession.make(warden, http)
            try await session.expectError(
                404, "inexistent_user", .post, "guardian/enrollments/ticket", json: ["user_id": "auth0|nobody"])
            try await session.expectError(400, "invalid_body", .post, "guardian/enrollments/ticket", json: [:])
            try await session.expectError(
                400, "invalid_body", .post, "guardian/enrollments/ticket", json: ["user_id": "x", "extra": true])
            try await session.expectError(
                400, "invalid_body", .post, "guardian/enrollments/ticket", json: ["user_id": 7])
            try await session.expectError(400, "invalid_body", .post, "guardian/enrollments/ticket", raw: "{")
            let reader = try await session.restricted(to: ["read:users"])
            try await reader.expectError(
                403, "insufficient_scope", .post, "guardian/enrollments/ticket", json: ["user_id": "x"])
            let anonymous = try await http.execute(uri: "/api/v2/guardian/enrollments/ticket", method: .post)
            expectError(anonymous, status: .init(code: 401), code: "invalid_token", shape: .management)
        }
    }

    @Test func sendMailEmailsTheLinkToTheUser() async throws {
        let outbox = FileManager.default.temporaryDirectory.appendingPathComponent(
            "warden-outbox-" + RandomToken.identifier(prefix: "", length: 12))
        let warden = try await TestWarden.make { $0.outboxDirectory = outbox.path }
        let (userID, email) = try await Self.user(warden)
        try await warden.test { http in
            let session = try await ManagementSession.make(warden, http)
            let ticket = try await session.expect(
                .ok, .post, "guardian/enrollments/ticket", json: ["user_id": .string(userID), "send_mail": true])
            let url = try #require(ticket["ticket_url"]?.stringValue)
            await warden.runtime.deliveries.waitUntilIdle()
            let names = try FileManager.default.contentsOfDirectory(atPath: outbox.path).filter { $0.hasSuffix(".eml") }
            #expect(names.count == 1)
            let message = try String(
                contentsOf: outbox.appendingPathComponent(try #require(names.first)), encoding: .utf8)
            #expect(message.contains("To: \(email)"))
            #expect(BackchannelFixture.decodeQuotedPrintable(message).contains(url))
        }
    }
}
