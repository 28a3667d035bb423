import Foundation
import Testing
import WardenAuthenticator
import WardenAuthenticatorURLSession

/// The user's phone: an authenticator enrolled for the live tenant's user through the device API (SPEC §7),
/// which answers the CIBA requests pushed to it — the server-side approval path the SDK's poller waits for.
struct Device: Sendable {
    let authenticator: Authenticator
    let enrollment: Enrollment

    /// Enrols a device (a `STREAM` push credential makes the user push-enrolled, SPEC §6.1) from the QR code URI
    /// of the enrolment ticket page `ticketPage` (HTML).
    static func enroll(_ live: LiveWarden, ticketPage page: String) async throws -> Device {
        let start = try #require(page.range(of: "otpauth://"))
        let uri = page[start.lowerBound...].prefix { $0 != "<" && $0 != "\"" }
            .replacingOccurrences(of: "&amp;", with: "&")
        let authenticator = Authenticator(transport: URLSessionTransport(), now: live.now)
        let enrollment = try await authenticator.enroll(
            uri: uri, identifier: UUID().uuidString, name: "Test phone",
            pushCredentials: PushCredentials(service: .stream, token: "stream"))
        return Device(authenticator: authenticator, enrollment: enrollment)
    }

    /// Answers the pending request (waits up to 5 s for it to arrive).
    func answer(approve: Bool) async throws {
        for _ in 0..<100 {
            if let notification = try await authenticator.pendingTransactions(enrollment: enrollment).first {
                if approve {
                    try await authenticator.allow(notification, enrollment: enrollment)
                } else {
                    try await authenticator.reject(notification, enrollment: enrollment, reason: "not me")
                }
                return
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        Issue.record("no pending transaction arrived")
    }
}
