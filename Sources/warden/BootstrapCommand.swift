import ArgumentParser
import WardenServer
import WardenStorage

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
        @OptionGroup var options: ServerOptions

        func run() async throws {
            let configuration = try options.resolve()
            let logger = WardenLogging.bootstrap(label: "warden")
            let store = try await Database.open(configuration, logger: logger)
            do {
                let runtime = try await WardenRuntime.make(configuration: configuration, store: store, logger: logger)
                let rotated = try await Bootstrap(runtime: runtime).rotateManagementSecret()
                Terminal.stderr(
                    """
                    Warden Management client secret rotated (shown once; store it now)
                    client_id:     \(rotated.clientID)
                    client_secret: \(rotated.secret)
                    """)
            } catch {
                try? await store.shutdown()
                throw error
            }
            try await store.shutdown()
        }
    }
}
