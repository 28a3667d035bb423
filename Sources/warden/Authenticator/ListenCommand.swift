import ArgumentParser
import Dispatch
import Foundation
import WardenAuthenticator

extension AuthenticatorCommand {
    /// `warden authenticator listen`: shows each request as it arrives and answers it.
    struct Listen: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Wait for requests, show each one and ask whether to approve it.",
            discussion: """
                Opens a WebSocket to the server for every enrolment (reconnecting with backoff when it drops). \
                Requests still pending arrive first. Each one is shown — a CIBA request with its client, binding \
                message, API, scopes and authorization details; a sign-in that asks this device as its second \
                factor as "Sign in to CLIENT from BROWSER on OS, LOCATION?" — followed by `Approve? [y/n]`; the \
                answer is signed with the device key. A request answered on another device or expired in the meantime is reported in one line \
                and skipped. Ctrl-C stops listening.

                Examples:
                  warden authenticator listen
                  warden authenticator listen --once         (exit after one answer)
                  warden authenticator listen --once --yes   (approve the next request)
                """)

        @Flag(help: "Exit after the first answered request.") var once = false
        @Flag(name: .customLong("yes"), help: "Approve every request without asking.") var approveAll = false
        @Flag(name: .customLong("no"), help: "Deny every request without asking.") var denyAll = false

        func validate() throws {
            if approveAll && denyAll { throw ValidationError("--yes and --no exclude each other") }
        }

        func run() async throws {
            let (authenticator, enrollments) = try await AuthenticatorHome().enrolledAuthenticator()
            let interrupt = Self.stopOnInterrupt()
            defer { interrupt.cancel() }
            let (deliveries, continuation) = AsyncStream.makeStream(of: TransactionStream.Delivery.self)
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    await withTaskGroup(of: Void.self) { streams in
                        for enrollment in enrollments {
                            streams.addTask {
                                await TransactionStream(authenticator: authenticator, enrollment: enrollment)
                                    .run { continuation.yield($0) }
                            }
                        }
                    }
                    continuation.finish()
                }
                defer { group.cancelAll() }
                let desk = TransactionDesk(authenticator: authenticator)
                var done: Set<String> = []
                for await (enrollment, transaction) in deliveries {
                    let token = transaction.notification.transactionToken
                    guard !done.contains(token) else { continue }
                    switch try await handle(transaction, enrollment: enrollment, desk: desk) {
                    case .answered where once: return
                    case .answered, .over: done.insert(token)
                    case .later: break
                    }
                }
                throw AuthenticatorCLIError("no enrolment left to listen for")
            }
        }

        /// What became of one delivered transaction.
        enum Outcome {
            /// Approved or denied here.
            case answered
            /// Answered elsewhere, expired, or refused for good.
            case over
            /// The server could not be reached; a later delivery may succeed.
            case later
        }

        private func handle(_ transaction: IncomingTransaction, enrollment: Enrollment, desk: TransactionDesk)
            async throws -> Outcome
        {
            do {
                try await desk.show(transaction, enrollment: enrollment)
                let approve: Bool
                if approveAll || denyAll {
                    approve = approveAll
                    Screen.write("Approve? [y/n] \(approve ? "y (--yes)" : "n (--no)")\n")
                } else {
                    guard let answer = await AnswerPrompt.ask() else {
                        throw AuthenticatorCLIError(
                            "input ended before an answer; use --yes or --no to answer without asking")
                    }
                    approve = answer
                }
                try await desk.answer(transaction, enrollment: enrollment, approve: approve)
                return .answered
            } catch let error as AuthenticatorCLIError {
                throw error
            } catch {
                Screen.write("\(transaction.label): \(TransactionDesk.describe(error)).\n")
                return TransactionDesk.isFinal(error) ? .over : .later
            }
        }

        /// Ctrl-C ends the command with a short note and exit status 0, also while a prompt waits for input.
        private static func stopOnInterrupt() -> any DispatchSourceSignal {
            signal(SIGINT, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
            source.setEventHandler {
                Terminal.stderr("\nStopped listening.")
                Foundation.exit(0)
            }
            source.resume()
            return source
        }
    }
}

/// The `Approve? [y/n]` question on the terminal.
enum AnswerPrompt {
    /// Asks until the answer is `y`/`yes` (true) or `n`/`no` (false); `nil` when the input ends first. Input typed
    /// before the question is discarded, so a stray key press cannot answer a request the user has not seen.
    static func ask() async -> Bool? {
        if isatty(STDIN_FILENO) == 1 { tcflush(STDIN_FILENO, TCIFLUSH) }
        while true {
            Screen.write("Approve? [y/n] ")
            guard let line = await readLine() else { return nil }
            switch line.trimmingCharacters(in: .whitespaces).lowercased() {
            case "y", "yes": return true
            case "n", "no": return false
            default: Screen.write("Please answer y or n.\n")
            }
        }
    }

    /// Reads a line on its own thread, keeping the concurrency pool free for the streams meanwhile.
    private static func readLine() async -> String? {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: Swift.readLine()) }.start()
        }
    }
}
