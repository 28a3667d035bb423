import ArgumentParser

/// The `warden` command line (SPEC §1).
@main
struct Warden: AsyncParsableCommand {
    /// Warden's release, printed by `warden --version`.
    static let version = "0.13.0"

    static let configuration = CommandConfiguration(
        commandName: "warden",
        abstract: "Warden: a self-hosted OAuth 2.0 / OpenID Connect server (CIBA, RAR, PKCE, native-to-web SSO).",
        discussion: """
            Flags override environment variables, which override defaults.
            Start with demo data:   warden serve --demo
            Approve on this terminal: warden authenticator enroll TICKET_URL, then warden authenticator listen
            """,
        version: "warden \(version)",
        subcommands: [
            Serve.self, Migrate.self, Keys.self, UsersCommand.self, AuthenticatorCommand.self, BootstrapCommand.self,
            Backup.self, Restore.self,
        ],
        defaultSubcommand: nil
    )
}
