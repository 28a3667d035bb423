import Foundation
import HTTPTypes
import HummingbirdWSClient
import Logging
import WardenAuthenticator
import WardenCore
import WardenWire

/// One enrolment's live feed of transactions (SPEC §7.5): a WebSocket to
/// `{issuer}appliance-mfa/api/device-accounts/{id}/stream` authorized by a fresh device-account JWT (SPEC §7.1),
/// whose text messages are webhook bodies (SPEC §7.2). The server sends the pending transactions first.
///
/// Reconnects with exponential backoff (1 s doubling to 30 s, back to 1 s after a connection that opened). When
/// the upgrade is refused, the pending list (SPEC §7.5) tells why: an enrolment the server refuses for good ends
/// the feed; otherwise its transactions are delivered, so a server without the stream is polled instead.
struct TransactionStream: Sendable {
    /// A transaction for an enrolment.
    typealias Delivery = (enrollment: Enrollment, transaction: IncomingTransaction)

    let authenticator: Authenticator
    let enrollment: Enrollment

    /// Delivers transactions until cancelled or until the server refuses the enrolment.
    func run(deliver: @escaping @Sendable (Delivery) -> Void) async {
        let opened = OpenCount()
        var delay = Duration.seconds(1)
        while !Task.isCancelled {
            let before = await opened.count
            let outcome: String
            do {
                try await connect(deliver: deliver, opened: opened)
                outcome = "the server closed the connection"
            } catch let error as WebSocketClientError where error == .webSocketUpgradeFailed {
                do {
                    for notification in try await authenticator.pendingTransactions(enrollment: enrollment) {
                        deliver((enrollment, IncomingTransaction(notification)))
                    }
                    outcome = "the server refused the stream"
                } catch let error where !TransactionDesk.isFinal(error) {
                    outcome = TransactionDesk.describe(error)
                } catch {
                    return giveUp(error)
                }
            } catch let error as AuthenticatorError {
                return giveUp(error)
            } catch {
                outcome = "cannot reach \(enrollment.issuer)"
            }
            guard !Task.isCancelled else { return }
            if await opened.count > before { delay = .seconds(1) }
            Terminal.stderr("\(name): \(outcome); reconnecting in \(delay.components.seconds) s")
            await pause(&delay)
        }
    }

    /// Reports why this enrolment's feed ends.
    private func giveUp(_ error: any Error) {
        Terminal.stderr("\(name): \(TransactionDesk.describe(error)); not listening for it")
    }

    /// How status lines name this enrolment.
    var name: String { "\(enrollment.userDescription), \(enrollment.id)" }

    /// The stream URL: the issuer with `ws`/`wss` for `http`/`https`.
    var url: String {
        var components = URLComponents(url: enrollment.baseURL, resolvingAgainstBaseURL: true)!
        components.scheme = components.scheme?.lowercased() == "https" ? "wss" : "ws"
        let path = "appliance-mfa/api/device-accounts/\(enrollment.id)/stream"
        return components.string! + (components.path.hasSuffix("/") ? "" : "/") + path
    }

    private func connect(deliver: @escaping @Sendable (Delivery) -> Void, opened: OpenCount) async throws {
        guard let key = try await authenticator.keyStore.key(enrollmentID: enrollment.id) else {
            throw AuthenticatorError(kind: .keyNotFound, detail: "no key stored for \(enrollment.id)")
        }
        let jwt = try DeviceJWT.deviceAccountToken(
            enrollmentID: enrollment.id, userID: enrollment.userID, issuer: enrollment.issuer, key: key)
        var configuration = WebSocketClientConfiguration(
            maxFrameSize: 1 << 16, closeTimeout: .seconds(2), autoPing: .enabled(timePeriod: .seconds(30)))
        configuration.additionalHeaders[.authorization] = "Bearer \(jwt)"
        let enrollment = enrollment
        let name = name
        let issuer = enrollment.issuer
        try await WebSocketClient.connect(
            url: url, configuration: configuration,
            logger: Logger(label: "warden.authenticator", factory: { _ in SwiftLogNoOpLogHandler() })
        ) { inbound, _, _ in
            let first = await opened.increment() == 1
            Terminal.stderr(
                first ? "Listening for requests to \(name) at \(issuer) (Ctrl-C to stop)" : "\(name): reconnected")
            for try await message in inbound.messages(maxSize: 1 << 20) {
                guard case .text(let text) = message,
                    let payload = try? JSONValue(parsing: text),
                    let transaction = IncomingTransaction(payload: payload)
                else { continue }
                deliver((enrollment, transaction))
            }
        }
    }

    /// Sleeps for `delay` (unless cancelled) and doubles it, up to 30 s.
    private func pause(_ delay: inout Duration) async {
        try? await Task.sleep(for: delay)
        delay = min(delay * 2, .seconds(30))
    }
}

/// How many times a stream has opened, shared with its WebSocket handler.
private actor OpenCount {
    private(set) var count = 0

    func increment() -> Int {
        count += 1
        return count
    }
}
