import Foundation
import HTTPTypes
import HummingbirdTesting
import HummingbirdWSClient
import Testing
import WardenAuthenticator
import WardenCore
import WardenTesting
import WardenWire

@testable import WardenServer

/// The `STREAM` push channel (SPEC §7.5): a WebSocket on which a device gets its pending transactions, then
/// each new one, once, as the webhook body of SPEC §7.2. Alone the suite takes 3 s; beside the whole suite on two
/// cores its tests were seen to take 55 to 75 s, hence a limit that only a hung stream reaches.
@Suite("Device stream", .timeLimit(.minutes(3)))
struct DeviceStreamTests {
    @Test func pendingTransactionsComeFirstThenEachNewOneAndTheirTokensWork() async throws {
        try await StreamingDevice.run { stream in
            let first = try await stream.device.startPush()
            let token = try #require(stream.enrollment.deviceAccountToken)
            try await stream.connect(credential: token) { messages in
                let pending = try await stream.expectNext(&messages, for: first)
                #expect(pending["mfa"]?["dai"]?.stringValue == stream.enrollment.id)
                #expect(pending["mfa"]?["sh"] == "127.0.0.1:8080")
                #expect(pending["aps"]?["alert"]?["body"] == "Pay 2500 USD #A-17")
                #expect(pending["aps"]?["category"] == "com.auth0.notification.authentication")
                #expect(pending["device"]?["id"]?.stringValue == stream.enrollment.id)
                #expect(pending["device"]?["service"] == "STREAM")
                #expect(pending["device"]?["token"]?.stringValue == stream.enrollment.pushCredentials?.token)

                let second = try await stream.device.startPush()
                let new = try await stream.expectNext(&messages, for: second)

                // The streamed token answers the transaction.
                let notification = try #require(AuthenticationNotification(json: Data(new.serialized.utf8)))
                try await stream.device.authenticator.allow(notification, enrollment: stream.enrollment)
                #expect(try await stream.fixture.poll(second, http: stream.device.http).status == .ok)
            }
            #expect(try await stream.fixture.events("gd_send_pn").count == 2)
        }
    }

    @Test func theDeviceJWTOpensTheStreamToo() async throws {
        try await StreamingDevice.run { stream in
            let started = try await stream.device.startPush()
            try await stream.connect(credential: try await stream.deviceJWT()) { messages in
                try await stream.expectNext(&messages, for: started)
            }
        }
    }

    @Test func theDeviceIsAuthorizedBeforeTheUpgrade() async throws {
        try await StreamingDevice.run { stream in
            let token = try #require(stream.enrollment.deviceAccountToken)
            await #expect(throws: WebSocketClientError.webSocketUpgradeFailed) {
                try await stream.connect(credential: "not-the-token") { _ in }
            }
            await #expect(throws: WebSocketClientError.webSocketUpgradeFailed) {
                try await stream.connect(credential: token, enrollmentID: "dev_unknown") { _ in }
            }
            // Without an upgrade, the same request says why.
            let http = stream.device.http
            let badToken = try await http.execute(
                uri: stream.path(), method: .get, headers: [.authorization: "Bearer not-the-token"])
            #expect(badToken.status == .unauthorized)
            #expect(badToken.json["errorCode"] == "invalid_token")
            #expect(badToken.json["statusCode"] == 401)
            let missing = try await http.execute(uri: stream.path(), method: .get)
            #expect(missing.json["errorCode"] == "invalid_token")
            let unknown = try await http.execute(
                uri: stream.path("dev_unknown"), method: .get, headers: [.authorization: "Bearer " + token])
            #expect(unknown.status == .notFound)
            #expect(unknown.json["errorCode"] == "device_account_not_found")
            let authorized = try await http.execute(
                uri: stream.path(), method: .get, headers: [.authorization: "Bearer " + token])
            #expect(authorized.status == .upgradeRequired)
            #expect(authorized.headers[.upgrade] == "websocket")
        }
    }

    @Test func aTransactionIsSentOnceWhateverRefreshesIt() async throws {
        try await StreamingDevice.run { stream in
            let first = try await stream.device.startPush()
            let runtime = stream.fixture.warden.runtime
            let id = stream.enrollment.id
            try await stream.connect(credential: try #require(stream.enrollment.deviceAccountToken)) { messages in
                try await stream.expectNext(&messages, for: first)
                // The push job's local refresh races announcements heard from the change channel.
                let second = try await stream.device.startPush()
                let announcement = try #require(ChangeAnnouncement(payload: "device:" + id))
                await withTaskGroup(of: Void.self) { group in
                    for _ in 0..<4 {
                        group.addTask { await CacheRefreshService(runtime: runtime).handle(announcement) }
                        group.addTask { runtime.deviceStreams.refresh(enrollmentID: id) }
                    }
                    group.addTask { await CacheRefreshService(runtime: runtime).handle(.reconnected) }
                }
                try await stream.expectNext(&messages, for: second)
                // Had the second been sent twice, its copy would come before the third.
                let third = try await stream.device.startPush()
                try await stream.expectNext(&messages, for: third)
            }
        }
    }

    @Test func anotherNodesAnnouncementOrAReconnectionSendsWhatNoLocalPushDid() async throws {
        try await StreamingDevice.run { stream in
            let runtime = stream.fixture.warden.runtime
            // No push job runs here for this device: only what the change channel says can reach the stream.
            var enrollment = try #require(try await runtime.store.deviceEnrollment(id: stream.enrollment.id))
            enrollment.pushDisabled = true
            try await runtime.store.updateDeviceEnrollment(enrollment)
            let first = try await stream.device.startPush()
            try await stream.connect(credential: try #require(stream.enrollment.deviceAccountToken)) { messages in
                try await stream.expectNext(&messages, for: first)
                let second = try await stream.device.startPush()
                await CacheRefreshService(runtime: runtime).handle(
                    .deviceTransactions(enrollmentID: stream.enrollment.id))
                try await stream.expectNext(&messages, for: second)
                let third = try await stream.device.startPush()
                await CacheRefreshService(runtime: runtime).handle(.reconnected)
                try await stream.expectNext(&messages, for: third)
            }
        }
    }

    @Test func theAnnouncementRoundTrips() {
        let announcement = ChangeAnnouncement.deviceTransactions(enrollmentID: "dev_abc")
        #expect(announcement.payload == "device:dev_abc")
        #expect(ChangeAnnouncement(payload: announcement.payload) == announcement)
        #expect(ChangeAnnouncement(payload: "device:") == nil)
    }
}
