import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
import WardenAuthenticator
import WardenCore
import WardenTesting
import WardenWire

@testable import WardenServer

/// The device SDK against the server (SPEC §7): enrolment from the ticket's `otpauth://` URI, a push-channel
/// CIBA request listed by the device, the consent with typed authorization details, allow / reject, and the
/// client's poll.
@Suite("Authenticator SDK against the device API")
struct AuthenticatorSDKTests {
    /// The reference documents' `money_transfer` detail, as an app declares it.
    struct MoneyTransfer: AuthorizationDetailsType, Equatable {
        static let type = "money_transfer"
        struct Amount: Codable, Equatable {
            var amount: Double
            var currency: String
        }
        var instructedAmount: Amount
        var beneficiary: String
    }

    /// A CIBA tenant, an SDK talking to it, and a management session.
    struct Device {
        let fixture: BackchannelFixture
        let http: any TestClientProtocol
        let authenticator: Authenticator
        let management: ManagementSession

        init(_ fixture: BackchannelFixture, _ http: any TestClientProtocol) async throws {
            self.fixture = fixture
            self.http = http
            let clock = fixture.warden.clock
            authenticator = Authenticator(transport: RouterTransport(client: http), now: { clock.now() })
            management = try await ManagementSession.make(fixture.warden, http)
        }

        /// Enrols a device from the QR code's URI on the ticket page.
        func enroll(identifier: String = UUID().uuidString, service: PushCredentials.Service = .stream) async throws
            -> Enrollment
        {
            let ticket = try await management.expect(
                .ok, .post, "guardian/enrollments/ticket", json: ["user_id": .string(fixture.userID)])
            let id = try #require(ticket["ticket_id"]?.stringValue)
            let page = try await http.execute(uri: "/u/guardian/enroll?ticket=" + id, method: .get).text
            let start = try #require(page.range(of: "otpauth://"))
            let uri = page[start.lowerBound...].prefix { $0 != "<" && $0 != "\"" }
                .replacingOccurrences(of: "&amp;", with: "&")
            return try await authenticator.enroll(
                uri: uri, identifier: identifier, name: "Test phone",
                pushCredentials: PushCredentials(service: service, token: "token-" + identifier))
        }

        /// Starts a push-channel request (requested_expiry ≤ 300).
        func startPush() async throws -> String {
            try await fixture.started(["requested_expiry": "120"], http: http)
        }
    }

    static func withDevice(_ body: @Sendable (Device) async throws -> Void) async throws {
        let fixture = try await BackchannelFixture.make()
        try await fixture.warden.test { http in try await body(try await Device(fixture, http)) }
    }

    @Test func theDeviceSeesTheTypedTransferAllowsItAndTheClientGetsTokensWithTheSameDetails() async throws {
        try await Self.withDevice { device in
            let enrollment = try await device.enroll()
            #expect(enrollment.userID == device.fixture.userID)
            let authRequestID = try await device.startPush()
            let pending = try await device.authenticator.pendingTransactions(enrollment: enrollment)
            let notification = try #require(pending.first)
            #expect(pending.count == 1)
            #expect(notification.enrollmentID == enrollment.id)
            #expect(notification.issuerHost == "127.0.0.1:8080")

            let consent = try await device.authenticator.fetchConsent(for: notification, enrollment: enrollment)
            #expect(consent.requestedDetails.bindingMessage == "Pay 2500 USD #A-17")
            #expect(consent.requestedDetails.audience == device.fixture.api.identifier)
            let transfers = consent.requestedDetails.filterAuthorizationDetailsByType(MoneyTransfer.self)
            #expect(
                transfers == [
                    MoneyTransfer(instructedAmount: .init(amount: 2500, currency: "USD"), beneficiary: "Hanna Herwitz")
                ])

            try await device.authenticator.allow(notification, enrollment: enrollment)
            let tokens = try await device.fixture.poll(authRequestID, http: device.http)
            #expect(tokens.status == .ok)
            let expected = try JSONDecoder().decode(JSONValue.self, from: Data(BackchannelFixture.details.utf8))
            #expect(tokens.json["authorization_details"] == expected)
            #expect(try await device.fixture.events("gd_auth_succeed").count == 1)
            #expect(try await device.fixture.events("gd_enrollment_complete").count == 1)
            let store = device.fixture.warden.runtime.store
            #expect(try await store.deviceEnrollment(id: enrollment.id)?.lastAuthAt != nil, "SPEC §12 last_auth")
            // Answered: nothing pending, and a second answer is refused.
            #expect(try await device.authenticator.pendingTransactions(enrollment: enrollment).isEmpty)
            await #expect(throws: AuthenticatorError.self) {
                try await device.authenticator.allow(notification, enrollment: enrollment)
            }
        }
    }

    @Test func aRejectionWithAReasonDeniesTheRequest() async throws {
        try await Self.withDevice { device in
            let enrollment = try await device.enroll()
            let authRequestID = try await device.startPush()
            let notification = try #require(
                try await device.authenticator.pendingTransactions(enrollment: enrollment).first)
            try await device.authenticator.reject(notification, enrollment: enrollment, reason: "hacked")
            let poll = try await device.fixture.poll(authRequestID, http: device.http)
            #expect(poll.status == .badRequest)
            #expect(poll.json["error"] == "access_denied")
            let rejected = try await device.fixture.events("gd_auth_rejected")
            #expect(rejected.first?.description?.hasSuffix(": hacked") == true)
        }
    }

    @Test func theFirstDeviceToAnswerDecidesAndTheOtherIsToldItWasAnswered() async throws {
        try await Self.withDevice { device in
            let phone = try await device.enroll(identifier: "phone")
            let tablet = try await device.enroll(identifier: "tablet")
            let authRequestID = try await device.startPush()
            let onPhone = try #require(try await device.authenticator.pendingTransactions(enrollment: phone).first)
            let onTablet = try #require(try await device.authenticator.pendingTransactions(enrollment: tablet).first)
            #expect(onPhone.challenge != onTablet.challenge)
            #expect(onPhone.transactionLinkingID == onTablet.transactionLinkingID)
            try await device.authenticator.reject(onTablet, enrollment: tablet)
            let late = await #expect(throws: AuthenticatorError.self) {
                try await device.authenticator.allow(onPhone, enrollment: phone)
            }
            #expect(late?.errorCode == "login_transaction_not_found")
            #expect(late?.status == 404)
            #expect(try await device.fixture.poll(authRequestID, http: device.http).json["error"] == "access_denied")
        }
    }

    @Test func anExpiredTransactionIsGone() async throws {
        try await Self.withDevice { device in
            let enrollment = try await device.enroll()
            _ = try await device.startPush()
            let notification = try #require(
                try await device.authenticator.pendingTransactions(enrollment: enrollment).first)
            device.fixture.warden.clock.advance(by: 121)
            let expired = await #expect(throws: AuthenticatorError.self) {
                _ = try await device.authenticator.fetchConsent(for: notification, enrollment: enrollment)
            }
            #expect(expired?.errorCode == "transaction_expired")
            #expect(expired?.status == 410)
            #expect(try await device.authenticator.pendingTransactions(enrollment: enrollment).isEmpty)
        }
    }

    @Test func aTransactionTokenDiesWithTheKeyThatMadeIt() async throws {
        try await Self.withDevice { device in
            let enrollment = try await device.enroll()
            _ = try await device.startPush()
            let notification = try #require(
                try await device.authenticator.pendingTransactions(enrollment: enrollment).first)
            let keys = device.fixture.warden.runtime.keys
            let old = try #require(keys.ring.currentKey(for: .rs256)).kid
            try await keys.rotate()
            // Still published: the token works.
            _ = try await device.authenticator.fetchConsent(for: notification, enrollment: enrollment)
            try await keys.revoke(kid: old)
            let revoked = await #expect(throws: AuthenticatorError.self) {
                _ = try await device.authenticator.fetchConsent(for: notification, enrollment: enrollment)
            }
            #expect(revoked?.errorCode == "invalid_token")
            // Listing hands out a token made with the current key.
            let fresh = try #require(
                try await device.authenticator.pendingTransactions(enrollment: enrollment).first)
            try await device.authenticator.allow(fresh, enrollment: enrollment)
        }
    }

    @Test func theDeviceUpdatesAndDeletesItsAccountAndManagementSeesIt() async throws {
        try await Self.withDevice { device in
            var enrollment = try await device.enroll(identifier: "laptop")
            enrollment = try await device.authenticator.updateDevice(enrollment: enrollment, name: "Work laptop")
            #expect(enrollment.deviceName == "Work laptop")
            let listed = try await device.management.expect(
                .ok, .get,
                "users/\(device.fixture.userID.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)/enrollments"
            )
            #expect(listed[0]?["name"] == "Work laptop")
            #expect(listed[0]?["identifier"] == "laptop")
            #expect(listed[0]?["type"] == "pn")
            try await device.authenticator.unenroll(enrollment)
            #expect(try await device.fixture.warden.runtime.store.deviceEnrollment(id: enrollment.id) == nil)
            #expect(try await device.fixture.events("gd_update_device_account").count == 1)
            #expect(try await device.fixture.events("gd_unenroll").count == 1)
        }
    }
}
