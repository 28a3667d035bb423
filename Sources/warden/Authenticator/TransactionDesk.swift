import Foundation
import WardenAuthenticator
import WardenCore
import WardenWire

/// A transaction as it arrived: a sign-in request or a consent request (SPEC §7.2, §12).
struct IncomingTransaction: Sendable {
    var notification: AuthenticationNotification

    /// A transaction from the pending list (SPEC §7.5).
    init(_ notification: AuthenticationNotification) {
        self.notification = notification
    }

    /// Parses any payload the SDK's ``AuthenticationNotification`` understands — a stream or webhook body, an APNs
    /// `userInfo`, an FCM data map, a bare SPEC §7.2 field set — also when wrapped in an FCM HTTP v1 send request
    /// (`{"message": {"data": {…}}}`).
    init?(payload: JSONValue) {
        guard let notification = AuthenticationNotification(payload: payload["message"]?["data"] ?? payload) else {
            return nil
        }
        self.notification = notification
    }

    /// How messages name this transaction: its consent id, or that it is a sign-in request and when it started.
    var label: String {
        guard let consentID = notification.transactionLinkingID else {
            return "Sign-in request started \(notification.startedAt.formatted(.iso8601))"
        }
        return "Request \(consentID)"
    }
}

/// Shows a transaction on the terminal and answers it, for `listen`, `approve` and `deny`.
struct TransactionDesk: Sendable {
    let authenticator: Authenticator

    /// Prints a sign-in request as its payload describes it (``SignInRendering``), or fetches a consent
    /// request's consent (SPEC §7.3) and prints that (``ConsentRendering``).
    func show(_ transaction: IncomingTransaction, enrollment: Enrollment) async throws {
        let notification = transaction.notification
        let account = enrollment.userDescription + " at " + enrollment.issuer
        let lines: [String]
        switch notification.kind {
        case .signIn:
            lines = SignInRendering.lines(notification, account: account)
        case .consent:
            let consent = try await authenticator.fetchConsent(for: notification, enrollment: enrollment)
            lines = ConsentRendering.lines(consent: consent, client: notification.clientName, account: account)
        }
        Screen.write("\n" + lines.joined(separator: "\n") + "\n")
    }

    /// Approves or denies (SPEC §7.4) and prints the outcome.
    func answer(_ transaction: IncomingTransaction, enrollment: Enrollment, approve: Bool, reason: String? = nil)
        async throws
    {
        if approve {
            try await authenticator.allow(transaction.notification, enrollment: enrollment)
        } else {
            try await authenticator.reject(transaction.notification, enrollment: enrollment, reason: reason)
        }
        Screen.write(approve ? "Approved.\n" : "Denied.\n")
    }

    /// Whether `error` ends the transaction for this device: answered elsewhere, expired, or refused for good.
    /// Only failures to reach the server are worth another try.
    static func isFinal(_ error: any Error) -> Bool {
        guard let error = error as? AuthenticatorError else { return true }
        return error.kind != .transport && (error.status ?? 0) < 500
    }

    /// One line for a failed SDK call: the server's error code in words, or what went wrong on the way.
    static func describe(_ error: any Error) -> String {
        guard let error = error as? AuthenticatorError else { return "\(error)" }
        switch error.errorCode {
        case "login_transaction_not_found": return "already answered (on this or another device)"
        case "transaction_expired": return "the request expired"
        case "consent_not_found": return "the server has no consent for it (consent_not_found)"
        case "enrollment_transaction_not_found":
            return "the enrolment ticket is unknown, used or expired; ask for a new one"
        case "already_enrolled": return "this device is already enrolled for the user (already_enrolled)"
        case "device_account_not_found": return "the server no longer knows this enrolment (device_account_not_found)"
        case "invalid_token": return "the server refused this device's credentials (invalid_token)"
        default: break
        }
        if error.kind == .transport { return "cannot reach the server: \(error.detail)" }
        if let server = error.serverError {
            let code = server.errorCode.map { " (\($0))" } ?? ""
            return "the server refused: \(server.message ?? server.error ?? "HTTP \(error.status ?? 0)")\(code)"
        }
        if let status = error.status { return "unexpected HTTP \(status) from \(error.detail)" }
        return "\(error.kind): \(error.detail)"
    }
}

extension Enrollment {
    /// The user as the terminal names it: the account name (usually the e-mail) with the user id, or the user id.
    var userDescription: String { accountName.map { "\($0) (\(userID))" } ?? userID }
}

/// The terminal's standard output, unbuffered, so that prompts without a newline appear at once.
enum Screen {
    static func write(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }
}
