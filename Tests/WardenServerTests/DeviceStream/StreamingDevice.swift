import Foundation
import HTTPTypes
import HummingbirdTesting
import HummingbirdWSClient
import Logging
import Testing
import WardenAuthenticator
import WardenCore
import WardenTesting
import WardenWire

/// A device enrolled for the `STREAM` service on a live server (the stream is a WebSocket, SPEC §7.5), with
/// the SDK fixture of the device API tests.
struct StreamingDevice {
    let device: AuthenticatorSDKTests.Device
    let enrollment: Enrollment
    /// The live server's port.
    let port: Int

    var fixture: BackchannelFixture { device.fixture }

    /// Runs `body` with a freshly enrolled device against a live server.
    static func run(_ body: @Sendable (StreamingDevice) async throws -> Void) async throws {
        let fixture = try await BackchannelFixture.make()
        try await fixture.warden.application().test(.live) { http in
            let device = try await AuthenticatorSDKTests.Device(fixture, http)
            let enrollment = try await device.enroll()
            try await body(StreamingDevice(device: device, enrollment: enrollment, port: try #require(http.port)))
        }
    }

    /// The stream's path for `enrollmentID` (this device's by default).
    func path(_ enrollmentID: String? = nil) -> String {
        "/appliance-mfa/api/device-accounts/\(enrollmentID ?? enrollment.id)/stream"
    }

    /// A device-account JWT signed by the device key (SPEC §7.1).
    func deviceJWT() async throws -> String {
        let key = try #require(try await device.authenticator.keyStore.key(enrollmentID: enrollment.id))
        return try DeviceJWT.deviceAccountToken(
            enrollmentID: enrollment.id, userID: enrollment.userID, issuer: enrollment.issuer, key: key,
            now: fixture.warden.clock.now())
    }

    /// Reads the next message and expects it to be the transaction of the request `authRequestID` (told apart
    /// by its consent id, `txlnkid`).
    @discardableResult
    func expectNext(
        _ messages: inout StreamMessages, for authRequestID: String, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> JSONValue {
        let message = try await messages.next(sourceLocation: sourceLocation)
        let consentID = try await fixture.stored(authRequestID).consentID
        #expect(message["mfa"]?["txlnkid"]?.stringValue == consentID, sourceLocation: sourceLocation)
        return message
    }

    /// Opens the stream with `Authorization: Bearer {credential}` and runs `body` with its messages; closes it
    /// when `body` returns.
    func connect(
        credential: String, enrollmentID: String? = nil,
        _ body: @escaping @Sendable (inout StreamMessages) async throws -> Void
    ) async throws {
        var configuration = WebSocketClientConfiguration()
        configuration.additionalHeaders[.authorization] = "Bearer " + credential
        try await WebSocketClient.connect(
            url: "ws://localhost:\(port)" + path(enrollmentID), configuration: configuration,
            logger: Logger(label: "device-stream-test")
        ) { inbound, _, _ in
            var messages = StreamMessages(iterator: inbound.messages(maxSize: 1 << 20).makeAsyncIterator())
            try await body(&messages)
        }
    }
}

/// What the server sends on a stream, one JSON text message at a time.
struct StreamMessages {
    var iterator: WebSocketInboundMessageStream.AsyncIterator

    /// The next message, parsed; fails when the stream closes or the message is not JSON text.
    mutating func next(sourceLocation: SourceLocation = #_sourceLocation) async throws -> JSONValue {
        let message = try #require(try await iterator.next(), "the stream closed", sourceLocation: sourceLocation)
        guard case .text(let text) = message else {
            Issue.record("expected a text message, got \(message)", sourceLocation: sourceLocation)
            return .null
        }
        return try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
    }
}
