import Foundation

/// What the agent shows while the user decides: on a terminal one line, rewritten in place every second with the
/// binding message and the seconds left; elsewhere (a pipe, a log) a plain line at each poll.
struct WaitingLine: Sendable {
    let bindingMessage: String
    let deadline: ContinuousClock.Instant
    let isTerminal: Bool

    init(bindingMessage: String, expiresIn: Int, isTerminal: Bool = isatty(STDOUT_FILENO) == 1) {
        self.bindingMessage = bindingMessage
        self.deadline = .now + .seconds(expiresIn)
        self.isTerminal = isTerminal
    }

    /// The line's text with the seconds left until the request expires.
    var text: String {
        let left = max(0, (deadline - .now).components.seconds)
        return "Waiting for approval of \"\(bindingMessage)\" on the user's device: \(left) s left"
    }

    /// Redraws the line every second until the task is cancelled, then erases it (terminal only).
    func animate() async {
        guard isTerminal else { return }
        while !Task.isCancelled {
            write("\r\u{1B}[2K" + text)
            try? await Task.sleep(for: .seconds(1))
        }
        write("\r\u{1B}[2K")
    }

    /// One poll answered `authorization_pending`: a plain line when not on a terminal.
    func pending() {
        if !isTerminal { say(text) }
    }

    /// A line of its own above the waiting line (which the next redraw puts back).
    func note(_ line: String) {
        if isTerminal { write("\r\u{1B}[2K") }
        say(line)
    }

    private func write(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }
}
