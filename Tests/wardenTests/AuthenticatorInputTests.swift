import Foundation
import Testing
import WardenAuthenticator
import WardenCore
import WardenWire

@testable import warden

/// Where `warden authenticator` keeps its enrolments, and how it reads what it is given: the ticket URL or
/// `otpauth://` URI of `enroll`, and the notification payloads of `approve`/`deny --notification`.
@Suite("warden authenticator: configuration and input")
struct AuthenticatorInputTests {
    @Test func theStoreDirectoryFollowsTheEnvironment() {
        func directory(_ environment: [String: String]) -> String {
            AuthenticatorHome(environment: environment, homeDirectory: "/home/ada").directory.path
        }
        #expect(directory([:]) == "/home/ada/.config/warden/authenticator")
        #expect(directory(["XDG_CONFIG_HOME": "/xdg"]) == "/xdg/warden/authenticator")
        #expect(directory(["XDG_CONFIG_HOME": "relative/xdg"]) == "/home/ada/.config/warden/authenticator")
        #expect(directory(["XDG_CONFIG_HOME": ""]) == "/home/ada/.config/warden/authenticator")
        #expect(
            directory(["WARDEN_AUTHENTICATOR_HOME": "/srv/device", "XDG_CONFIG_HOME": "/xdg"]) == "/srv/device")
        #expect(directory(["WARDEN_AUTHENTICATOR_HOME": "", "XDG_CONFIG_HOME": "/xdg"]) == "/xdg/warden/authenticator")
    }

    @Test func enrollTakesATicketURLOrTheOtpauthURI() throws {
        let ticket = try EnrollmentSource("https://id.example.com/tenant/u/guardian/enroll?ticket=Tk3x ")
        #expect(ticket == .ticket(id: "Tk3x", baseURL: URL(string: "https://id.example.com/tenant/")!))
        let local = try EnrollmentSource("http://127.0.0.1:8080/u/guardian/enroll?ticket=abc")
        #expect(local == .ticket(id: "abc", baseURL: URL(string: "http://127.0.0.1:8080/")!))

        let uri =
            "otpauth://totp/Warden:ada@example.com?secret=JBSWY3DPEHPK3PXP&enrollment_tx_id=abc&issuer=Warden"
            + "&id=dev_1&base_url=http%3A%2F%2F127.0.0.1%3A8080%2F&algorithm=sha1&digits=6&counter=0&period=30"
        guard case .uri(let parsed) = try EnrollmentSource(uri) else {
            Issue.record("the otpauth URI was not recognised")
            return
        }
        #expect(parsed.ticketID == "abc")
        #expect(parsed.accountName == "ada@example.com")

        for wrong in [
            "https://id.example.com/u/guardian/enroll", "https://id.example.com/other?ticket=abc",
            "ftp://id.example.com/u/guardian/enroll?ticket=abc", "ticket",
        ] {
            #expect(throws: AuthenticatorCLIError.self) { try EnrollmentSource(wrong) }
        }
    }

    @Test func notificationsAreReadFromEveryPushShape() throws {
        let fields =
            #""dai": "dev_1", "txtkn": "tok", "c": "chal", "d": "2024-05-01T12:00:00.000Z", "sh": "id.example.com", "#
            + #""txlnkid": "cns_1""#
        let stream = try AnswerOptions.parse(
            #"{"aps": {"alert": {"title": "Bank app", "body": "Pay 10 EUR"}, "#
                + #""category": "com.auth0.notification.authentication"}, "mfa": {\#(fields)}, "#
                + #""device": {"id": "dev_1", "service": "STREAM", "token": "t"}}"#)
        #expect(stream.notification.clientName == "Bank app")
        #expect(stream.notification.bindingMessage == "Pay 10 EUR")
        #expect(stream.notification.transactionLinkingID == "cns_1")
        #expect(stream.label == "Request cns_1")

        let fcm = try AnswerOptions.parse("{\(fields)}")
        #expect(fcm.notification.clientName == nil)
        #expect(fcm.notification.enrollmentID == "dev_1")
        let fcmRequest = try AnswerOptions.parse(#"{"message": {"token": "reg", "data": {\#(fields)}}}"#)
        #expect(fcmRequest.notification == fcm.notification)

        #expect(throws: AuthenticatorCLIError.self) { try AnswerOptions.parse("not json") }
        #expect(throws: AuthenticatorCLIError.self) { try AnswerOptions.parse(#"{"aps": {}}"#) }
    }

    @Test func theStreamURLUsesWebSocketSchemes() {
        func url(_ base: String) -> String {
            let enrollment = Enrollment(
                id: "dev_1", userID: "u", baseURL: URL(string: base)!, deviceIdentifier: "d", deviceName: "n")
            return TransactionStream(
                authenticator: Authenticator(transport: AsyncHTTPClientTransport()), enrollment: enrollment
            ).url
        }
        #expect(url("http://127.0.0.1:8080/") == "ws://127.0.0.1:8080/appliance-mfa/api/device-accounts/dev_1/stream")
        #expect(
            url("https://id.example.com/t/") == "wss://id.example.com/t/appliance-mfa/api/device-accounts/dev_1/stream")
    }
}
