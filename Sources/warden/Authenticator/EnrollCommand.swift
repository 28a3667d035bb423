import ArgumentParser
import Foundation
import WardenAuthenticator

extension AuthenticatorCommand {
    /// `warden authenticator enroll TICKET_URL_OR_OTPAUTH_URI [--name NAME]`.
    struct Enroll: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Enrol this terminal as an authenticator device of a user.",
            discussion: """
                Takes the enrolment ticket link an administrator made (Management API POST \
                /api/v2/guardian/enrollments/ticket, or the e-mail it sends) or the otpauth:// URI shown under \
                the QR code of its page. Generates an RSA 2048 device key, registers it with push service \
                STREAM, and stores the key and the enrolment. A ticket works once.

                Examples:
                  warden authenticator enroll \\
                    'https://id.example/u/guardian/enroll?ticket=Tk3…'
                  warden authenticator enroll \\
                    'otpauth://totp/Warden:ada@…?enrollment_tx_id=…&base_url=…'
                  warden authenticator enroll --name 'Build box' 'https://id.example/u/…'
                  WARDEN_AUTHENTICATOR_HOME=~/.device2 warden authenticator enroll '…'

                With --push-service APNS|FCM|WEBHOOK and --push-token the terminal registers as a device reached \
                through that service instead (a test stand-in for a phone app): answer what reaches it with \
                `warden authenticator approve --notification PAYLOAD`, or list it with `warden authenticator list`.
                """)

        @Argument(help: "The ticket URL ({issuer}u/guardian/enroll?ticket=…) or the otpauth:// enrolment URI.")
        var ticket: String
        @Option(help: "The device name the server shows (default: \"Terminal on HOSTNAME\").") var name: String?
        @Option(help: "The push service to register (STREAM, APNS, FCM, GCM or WEBHOOK; default STREAM).")
        var pushService: String = "STREAM"
        @Option(help: "The push token to register with --push-service (default: random).") var pushToken: String?

        func validate() throws {
            guard ["STREAM", "APNS", "FCM", "GCM", "WEBHOOK"].contains(pushService.uppercased()) else {
                throw ValidationError("--push-service must be one of STREAM, APNS, FCM, GCM, WEBHOOK")
            }
        }

        func run() async throws {
            let source = try EnrollmentSource(ticket)
            let home = AuthenticatorHome()
            let authenticator = try home.authenticatorCreatingStore()
            let identifier = "warden-cli-" + Self.randomHex()
            let push = PushCredentials(
                service: PushCredentials.Service(rawValue: pushService.uppercased()),
                token: pushToken ?? Self.randomHex())
            let deviceName = name ?? "Terminal on \(ProcessInfo.processInfo.hostName)"
            let enrollment: Enrollment
            do {
                switch source {
                case .uri(let uri):
                    enrollment = try await authenticator.enroll(
                        uri: uri, identifier: identifier, name: deviceName, pushCredentials: push)
                case .ticket(let id, let baseURL):
                    enrollment = try await authenticator.enroll(
                        ticket: id, baseURL: baseURL, identifier: identifier, name: deviceName, pushCredentials: push)
                }
            } catch {
                throw AuthenticatorCLIError("enrolment failed: \(TransactionDesk.describe(error))")
            }
            let server = enrollment.issuer + (enrollment.issuerLabel.map { " (\($0))" } ?? "")
            Screen.write(
                """
                Enrolled this terminal as an authenticator device.
                  User:    \(enrollment.userDescription)
                  Server:  \(server)
                  Device:  \(enrollment.id) "\(deviceName)"
                  Stored:  \(home.directory.path)
                Next: warden authenticator listen

                """)
        }

        /// 16 random bytes in hex.
        static func randomHex() -> String {
            (0..<16).map { _ in String(format: "%02x", UInt8.random(in: .min ... .max)) }.joined()
        }
    }
}

/// What `enroll` was given: the `otpauth://` URI of the QR code, or the ticket page's URL
/// `{issuer}u/guardian/enroll?ticket={id}` (SPEC §7.1).
enum EnrollmentSource: Equatable {
    case uri(EnrollmentURI)
    case ticket(id: String, baseURL: URL)

    init(_ text: String) throws {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if let uri = EnrollmentURI(trimmed) {
            self = .uri(uri)
            return
        }
        let marker = "u/guardian/enroll"
        guard let components = URLComponents(string: trimmed),
            ["http", "https"].contains(components.scheme?.lowercased()), components.host != nil,
            components.path.hasSuffix("/" + marker),
            let id = components.queryItems?.first(where: { $0.name == "ticket" })?.value, !id.isEmpty
        else {
            throw AuthenticatorCLIError(
                "not an enrolment ticket URL ({issuer}u/guardian/enroll?ticket=…) or otpauth:// URI: \(trimmed)")
        }
        var base = components
        base.path = String(components.path.dropLast(marker.count))
        base.query = nil
        base.fragment = nil
        self = .ticket(id: id, baseURL: base.url!)
    }
}
