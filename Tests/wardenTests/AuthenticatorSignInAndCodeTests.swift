import Foundation
import Testing
import WardenAuthenticator
import WardenCore
import WardenWire

@testable import warden

/// How `warden authenticator` shows a sign-in request (SPEC §12: a login transaction, no consent) and prints the
/// enrolments' one-time codes (`warden authenticator code`, RFC 6238).
@Suite("warden authenticator: sign-in requests and codes")
struct AuthenticatorSignInAndCodeTests {
    func signIn(
        body: String? = "Sign in to Bank app", browser: String? = "Firefox", system: String? = "Linux",
        place: String? = "Amsterdam, NL"
    ) -> AuthenticationNotification {
        AuthenticationNotification(
            enrollmentID: "dev_1", transactionToken: "t", challenge: "c",
            startedAt: Date(timeIntervalSince1970: 1_714_564_800), issuerHost: "id.example",
            source: AuthenticationSource(
                browser: browser.map { .init(name: $0, version: "126.0") },
                operatingSystem: system.map { .init(name: $0, version: nil) }),
            location: place.map { AuthenticationLocation(name: $0, latitude: nil, longitude: nil) },
            alert: body.map { .init(title: "Warden: sign in", body: $0) })
    }

    @Test func aSignInRequestIsOneQuestionAndTheAccount() {
        #expect(
            SignInRendering.lines(signIn(), account: "ada@example.com (u1) at https://id.example/") == [
                "Sign in to Bank app from Firefox on Linux, Amsterdam, NL?",
                "  Account:  ada@example.com (u1) at https://id.example/",
            ])
    }

    @Test(
        "unknown parts are left out",
        arguments: [
            (nil, "Firefox", "Linux", nil, "Sign in to Bank app from Firefox on Linux?"),
            (nil, nil, "Linux", "Paris", "Sign in to Bank app on Linux, Paris?"),
            (nil, nil, nil, "Paris", "Sign in to Bank app from Paris?"),
            (nil, nil, nil, nil, "Sign in to Bank app?"),
            ("Anmelden bei Bank app", "Firefox", nil, nil, "Sign in from Firefox?"),
            ("Sign in to ", nil, "", "", "Sign in?"),
        ] as [(String?, String?, String?, String?, String)])
    func question(body: String?, browser: String?, system: String?, place: String?, expected: String) {
        #expect(
            SignInRendering.question(
                signIn(body: body ?? "Sign in to Bank app", browser: browser, system: system, place: place))
                == expected)
    }

    @Test func aBodyOfAnotherFormIsShownAsItCameAndCoordinatesStandForAMissingPlaceName() {
        var notification = signIn(body: "Anmelden bei Bank app", browser: nil, system: nil, place: nil)
        notification.location = AuthenticationLocation(name: nil, latitude: 52.3702, longitude: 4.8952)
        #expect(
            SignInRendering.lines(notification, account: nil) == [
                "Sign in from 52.37, 4.90?", "  Notification:  Anmelden bei Bank app",
            ])
    }

    /// SPEC §11: nothing from the push reaches the terminal as a control or bidirectional character.
    @Test func controlCharactersNeverReachTheTerminal() {
        let lines = SignInRendering.lines(
            signIn(body: "Sign in to Bank\u{1B}[2J\u{202E}app", browser: "Fire\nfox", system: nil, place: nil),
            account: nil)
        #expect(lines == ["Sign in to Bank [2Japp from Fire fox?"])
    }

    @Test func aSignInPayloadIsLabelledAsOne() throws {
        let transaction = try AnswerOptions.parse(
            #"{"aps": {"alert": {"title": "Warden: sign in", "body": "Sign in to Bank app"}}, "#
                + #""mfa": {"dai": "dev_1", "txtkn": "tok", "c": "chal", "d": "2024-05-01T12:00:00.000Z", "#
                + #""sh": "id.example.com"}}"#)
        #expect(transaction.notification.kind == .signIn)
        #expect(transaction.notification.clientName == "Bank app")
        #expect(transaction.label == "Sign-in request started 2024-05-01T12:00:00Z")
    }

    // MARK: - code

    /// RFC 4226 Appendix D's secret: at 59 s the code of step 1, one second left.
    static let secret = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"

    func enrollment(_ id: String, account: String?, label: String? = "Warden", totp: TOTPParameters?) -> Enrollment {
        Enrollment(
            id: id, userID: "auth0|\(id)", baseURL: URL(string: "https://id.example/")!, issuerLabel: label,
            accountName: account, deviceIdentifier: "d", deviceName: "n", totp: totp)
    }

    @Test func codeListsEachAccountWithItsCodeAndTheSecondsLeft() {
        let enrollments = [
            enrollment("dev_1", account: "alice@example.com", totp: TOTPParameters(secret: Self.secret)),
            enrollment("dev_2", account: "old@example.com", totp: nil),
            enrollment("dev_3", account: nil, label: nil, totp: TOTPParameters(secret: Self.secret, digits: 8)),
        ]
        let listing = AuthenticatorCommand.Code.listing(enrollments, at: Date(timeIntervalSince1970: 59))
        #expect(
            listing.lines == [
                "alice@example.com (Warden)  287 082  (1 s left)",
                "auth0|dev_3                 9428 7082  (1 s left)",
            ])
        #expect(
            listing.notes == [
                "Skipped old@example.com (Warden), dev_2: no TOTP secret stored (enrolled by an older warden); "
                    + "enrol again"
            ])
    }

    @Test func codeSelectsAnAccountByIdOrName() throws {
        let enrollments = [
            enrollment("dev_1", account: "alice@example.com", totp: nil),
            enrollment("dev_2", account: "bob@example.com", totp: nil),
        ]
        typealias Code = AuthenticatorCommand.Code
        #expect(try Code.select(enrollments, account: nil).map(\.id) == ["dev_1", "dev_2"])
        #expect(try Code.select(enrollments, account: "dev_2").map(\.id) == ["dev_2"])
        #expect(try Code.select(enrollments, account: "alice@example.com").map(\.id) == ["dev_1"])
        #expect(try Code.select(enrollments, account: "auth0|dev_2").map(\.id) == ["dev_2"])
        #expect(throws: AuthenticatorCLIError.self) { try Code.select(enrollments, account: "carol@example.com") }
        #expect(throws: AuthenticatorCLIError.self) { try Code.code(of: enrollments[0], at: Date()) }
    }
}
