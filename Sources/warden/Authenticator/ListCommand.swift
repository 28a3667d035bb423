import ArgumentParser
import Foundation
import WardenAuthenticator
import WardenCore

extension AuthenticatorCommand {
    /// `warden authenticator list`: the enrolments and their pending requests.
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show this terminal's enrolments and the requests waiting for each.",
            discussion: """
                Each pending request is listed with its consent id (cns_…), which `approve` and `deny` accept, \
                and its binding message; a sign-in request (no consent id: `approve sign-in` answers it) with \
                the sign-in it asks to approve.

                Example:
                  warden authenticator list
                """)

        func run() async throws {
            let home = AuthenticatorHome()
            let (authenticator, enrollments) = try await home.enrolledAuthenticator()
            Screen.write("Enrolments in \(home.directory.path):\n")
            for enrollment in enrollments {
                Screen.write(
                    "\n\(enrollment.id)  \(enrollment.userDescription)  \(enrollment.issuer)  \"\(enrollment.deviceName)\"\n"
                )
                let pending: [AuthenticationNotification]
                do {
                    pending = try await authenticator.pendingTransactions(enrollment: enrollment)
                } catch {
                    Screen.write("  cannot list requests: \(TransactionDesk.describe(error))\n")
                    continue
                }
                if pending.isEmpty { Screen.write("  no pending request\n") }
                for notification in pending {
                    Screen.write("  " + (await summary(notification, enrollment: enrollment, authenticator)) + "\n")
                }
            }
        }

        /// `cns_…  started …  "binding message"` (or the reason the consent could not be read), or
        /// `sign-in  started …  Sign in to … from …?`.
        private func summary(
            _ notification: AuthenticationNotification, enrollment: Enrollment, _ authenticator: Authenticator
        ) async -> String {
            let started = notification.startedAt.formatted(.iso8601)
            let head = "\(notification.transactionLinkingID ?? AnswerOptions.signIn)  started \(started)"
            guard notification.kind == .consent else { return head + "  " + SignInRendering.question(notification) }
            do {
                let consent = try await authenticator.fetchConsent(for: notification, enrollment: enrollment)
                let message = consent.requestedDetails.bindingMessage.map(DisplayText.clean) ?? ""
                return head + "  \"\(message)\""
            } catch {
                return head + "  (\(TransactionDesk.describe(error)))"
            }
        }
    }
}
