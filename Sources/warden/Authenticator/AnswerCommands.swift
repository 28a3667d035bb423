import ArgumentParser
import Foundation
import WardenAuthenticator
import WardenCore
import WardenWire

extension AuthenticatorCommand {
    /// `warden authenticator approve [CNS_ID | sign-in | --notification JSON]`.
    struct Approve: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Approve a pending request (shown first).",
            discussion: AnswerOptions.discussion(command: "approve"))

        @OptionGroup var options: AnswerOptions

        func run() async throws {
            try await options.answer(approve: true, reason: nil)
        }
    }

    /// `warden authenticator deny [--reason R] [CNS_ID | sign-in | --notification JSON]`.
    struct Deny: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Deny a pending request (shown first).",
            discussion: AnswerOptions.discussion(command: "deny"))

        @OptionGroup var options: AnswerOptions
        @Option(help: "Why (sent as auth0_guardian_reason), e.g. 'not me'.") var reason: String?

        func run() async throws {
            try await options.answer(approve: false, reason: reason)
        }
    }
}

/// Which transaction `approve` and `deny` answer: the only pending one, the pending one with a consent id, the
/// only pending sign-in request (SPEC §12), or the one a notification payload carries.
struct AnswerOptions: ParsableArguments {
    /// The argument naming the pending sign-in request, which has no consent id.
    static let signIn = "sign-in"

    @Argument(
        help: """
            The consent id (cns_…, see `list`) of the request, or `sign-in` for the pending sign-in request; needed             when several requests are pending.
            """)
    var request: String?
    @Option(
        help: """
            A notification payload instead of a pending request: a stream or webhook body, an APNs userInfo, an \
            FCM data map or FCM send request, as JSON text, @FILE, or - for standard input.
            """)
    var notification: String?

    func validate() throws {
        if request != nil && notification != nil {
            throw ValidationError("give a request (consent id or sign-in) or --notification, not both")
        }
    }

    static func discussion(command: String) -> String {
        """
        Without arguments answers the only pending request of this terminal's enrolments; with a consent id, \
        that request; with `sign-in`, the only pending sign-in request (a sign-in to an application that asks \
        this device as its second factor; it has no consent id). With --notification, the transaction in a push \
        payload (as a push provider delivered it). The request is shown first.

        Examples:
          warden authenticator \(command)
          warden authenticator \(command) cns_8f2k…
          warden authenticator \(command) sign-in
          warden authenticator \(command) --notification @push.json
          warden authenticator \(command) --notification - < push.json
        """
    }

    /// Finds the transaction, shows it (with its consent, for a consent request), and answers it.
    func answer(approve: Bool, reason: String?) async throws {
        let (authenticator, enrollments) = try await AuthenticatorHome().enrolledAuthenticator()
        let (enrollment, transaction) = try await target(authenticator, enrollments)
        let desk = TransactionDesk(authenticator: authenticator)
        do {
            try await desk.show(transaction, enrollment: enrollment)
            try await desk.answer(transaction, enrollment: enrollment, approve: approve, reason: reason)
        } catch {
            throw AuthenticatorCLIError("\(transaction.label): \(TransactionDesk.describe(error))")
        }
    }

    private func target(_ authenticator: Authenticator, _ enrollments: [Enrollment]) async throws
        -> TransactionStream.Delivery
    {
        if let notification {
            let transaction = try Self.parse(notification)
            guard let enrollment = enrollments.first(where: { $0.id == transaction.notification.enrollmentID }) else {
                throw AuthenticatorCLIError(
                    "the notification is for enrolment \(transaction.notification.enrollmentID), not enrolled here")
            }
            return (enrollment, transaction)
        }
        var pending: [TransactionStream.Delivery] = []
        var failures: [String] = []
        for enrollment in enrollments {
            do {
                pending += try await authenticator.pendingTransactions(enrollment: enrollment).map {
                    (enrollment, IncomingTransaction($0))
                }
            } catch {
                failures.append("\(enrollment.id): \(TransactionDesk.describe(error))")
            }
        }
        if let request {
            pending = pending.filter {
                request == Self.signIn
                    ? $0.transaction.notification.kind == .signIn
                    : $0.transaction.notification.transactionLinkingID == request
            }
        }
        switch pending.count {
        case 1:
            return pending[0]
        case 0:
            let what = request.map { "no pending request \($0)" } ?? "no pending request"
            throw AuthenticatorCLIError(([what] + failures).joined(separator: "; "))
        default:
            let ids = pending.map { $0.transaction.notification.transactionLinkingID ?? Self.signIn }
            throw AuthenticatorCLIError(
                "\(pending.count) requests are pending (\(ids.joined(separator: ", "))); name one by its consent id, "
                    + "or answer them one by one with `warden authenticator listen`")
        }
    }

    /// Reads the `--notification` value (JSON text, `@FILE` or `-`) into a transaction.
    static func parse(_ argument: String) throws -> IncomingTransaction {
        let data: Data
        if argument == "-" {
            data = FileHandle.standardInput.readDataToEndOfFile()
        } else if argument.hasPrefix("@") {
            guard let contents = FileManager.default.contents(atPath: String(argument.dropFirst())) else {
                throw AuthenticatorCLIError("cannot read \(argument.dropFirst())")
            }
            data = contents
        } else {
            data = Data(argument.utf8)
        }
        guard let payload = try? JSONValue(parsing: data) else {
            throw AuthenticatorCLIError("--notification is not JSON")
        }
        guard let transaction = IncomingTransaction(payload: payload) else {
            throw AuthenticatorCLIError("--notification carries no Warden transaction (dai, txtkn, c, d, sh)")
        }
        return transaction
    }
}
