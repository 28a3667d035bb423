import ArgumentParser
import WardenServer

/// `warden bootstrap rotate-secret`: the one way to rotate the Warden Management client's secret, since the
/// Management API it authorizes refuses to (SPEC §1, §11).
struct BootstrapCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bootstrap", abstract: "Manage the Warden Management (bootstrap) client.",
        subcommands: [RotateSecret.self])

    struct RotateSecret: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rotate-secret",
            abstract: "Give the Warden Management client a new secret, printed once on stderr.",
            discussion: """
                The previous secret stops working at once; running servers pick the change up like any tenant \
                change. Refused while WARDEN_BOOTSTRAP_CLIENT_SECRET is set (change it there instead).
                """)
        @OptionGroup var options: StoreOptions

        func run() async throws {
            try await options.withRuntime { runtime, _ in
                let rotated = try await Bootstrap(runtime: runtime).rotateManagementSecret()
                Terminal.stderr(
                    """
                    Warden Management client secret rotated (shown once; store it now)
                    client_id:     \(rotated.clientID)
                    client_secret: \(rotated.secret)
                    """)
            }
        }
    }
}
