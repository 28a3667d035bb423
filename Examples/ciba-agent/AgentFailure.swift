import WardenClient

/// Why the agent gives up, in one line (ArgumentParser prints it after `Error:` and exits with status 1).
struct AgentFailure: Error, CustomStringConvertible {
    let message: String

    init(message: String) {
        self.message = message
    }

    /// The user's answer or the server's refusal (CIBA Core §11).
    init(_ error: WardenClientError) {
        let detail = error.errorDescription.map { "\(error.error): \($0)" } ?? error.error
        switch error.error {
        // The wire's description (CIBA Core: "…denied the authorization request or it has been expired") is not
        // for people; the code says it all.
        case "access_denied": message = "the user denied the transfer (access_denied)"
        case "expired_token": message = "the request expired before the user answered (\(detail))"
        default: message = "Warden refused the request (\(detail))"
        }
    }

    var description: String { message }
}
