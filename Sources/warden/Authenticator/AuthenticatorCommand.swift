import ArgumentParser

/// `warden authenticator …` (SPEC §1, §7): this terminal as an authenticator device, through the
/// WardenAuthenticator SDK.
struct AuthenticatorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "authenticator",
        abstract: """
            Use this terminal as an authenticator device: enrol it, approve or deny CIBA requests and sign-ins, \
            show one-time codes.
            """,
        discussion: """
            A CIBA request with requested_expiry ≤ 300 is pushed to every enrolled device of its user, and so \
            is a sign-in that asks for a second factor. This command enrols the terminal as such a device \
            (push service STREAM: it holds a WebSocket to the server), shows each request — a CIBA request's \
            client, binding message, API, scopes and authorization details; a sign-in's client, browser, OS \
            and location — and answers it with the device key. It also shows the enrolment's one-time codes \
            (TOTP), the second factor to type when a sign-in asks for a code.

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
              warden authenticator code
            """,
        subcommands: [Enroll.self, List.self, Listen.self, Approve.self, Deny.self, Code.self])
}

/// A failure the CLI reports as one line on stderr (`Error: …`) with exit code 1.
struct AuthenticatorCLIError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
