import ArgumentParser

/// `warden authenticator …` (SPEC §1, §7): this terminal as an authenticator device, through the
/// WardenAuthenticator SDK.
struct AuthenticatorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "authenticator",
        abstract: "Use this terminal as an authenticator device: enrol it, then approve or deny CIBA requests.",
        discussion: """
            A CIBA request with requested_expiry ≤ 300 is pushed to every enrolled device of its user. This \
            command enrols the terminal as such a device (push service STREAM: it holds a WebSocket to the \
            server), shows each request — client, binding message, API, scopes and authorization details — \
            and answers it with the device key.

            Enrolments and their private keys are kept in $WARDEN_AUTHENTICATOR_HOME, else \
            $XDG_CONFIG_HOME/warden/authenticator, else ~/.config/warden/authenticator (directory 0700, \
            files 0600).

            Examples:
              warden authenticator enroll \\
                'https://id.example/u/guardian/enroll?ticket=…'
              warden authenticator listen
              warden authenticator list
              warden authenticator approve
              warden authenticator deny cns_8f2k… --reason 'not me'
            """,
        subcommands: [Enroll.self, List.self, Listen.self, Approve.self, Deny.self])
}

/// A failure the CLI reports as one line on stderr (`Error: …`) with exit code 1.
struct AuthenticatorCLIError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
