import ArgumentParser
import Foundation
import Hummingbird
import Logging
import NIOCore
import NIOPosix
import WardenCore
import WardenServer
import WardenStorage

/// `warden serve [--demo]`.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the server; creates and migrates the database on first start.",
        discussion: """
            On first start Warden creates its signing keys and the "Warden Management" client, whose id and \
            secret come from WARDEN_BOOTSTRAP_CLIENT_ID / WARDEN_BOOTSTRAP_CLIENT_SECRET or are generated and \
            printed once on stderr (after the --demo quick start). Setting both variables later resets that \
            client's secret to the given one.

            Environment only: WARDEN_BOOTSTRAP_CLIENT_ID, WARDEN_BOOTSTRAP_CLIENT_SECRET (at least 32 characters), \
            WARDEN_DATA_KEY (32 bytes in base64: the key upstream tokens are kept under, SPEC §15).
            """)

    @OptionGroup var options: ServerOptions
    @Flag(help: "Seed the demo tenant (idempotent) and print a quick start.") var demo = false
    @Flag(
        help: """
            With --demo: turn on MFA at sign-in (SPEC §12) — the push, one-time code and recovery code factors, \
            and the all-applications policy. Without it the demo's MFA settings are left as they are.
            """)
    var demoMFA = false

    func run() async throws {
        let settings = Settings()
        let logging = try options.store.logging(settings)
        let configuration = try options.resolve(settings)
        try await ListenAddress.ensureAvailable(host: configuration.host, port: configuration.port)
        let logger = WardenLogging.bootstrap(label: "warden", settings: logging)
        let store = try await Database.open(configuration, logger: logger)
        store.observeStatements(DatabaseQueryMetrics())
        let runtime: WardenRuntime
        do {
            runtime = try await WardenRuntime.make(configuration: configuration, store: store, logger: logger)
        } catch {
            try? await store.shutdown()
            throw error
        }
        do {
            let outcome = try await Bootstrap(runtime: runtime).run()
            guard demo || !demoMFA else { throw ValidationError("--demo-mfa needs --demo") }
            if demo {
                let seeded = try await DemoTenant(runtime: runtime).seed()
                if demoMFA { try await DemoTenant(runtime: runtime).turnOnMFA() }
                Terminal.printQuickStart(
                    seeded, issuer: runtime.issuer, executable: .current, registration: configuration.registration)
            }
            Terminal.printManagementClient(
                id: outcome.managementClientID, createdSecret: outcome.createdClient?.secret, issuer: runtime.issuer,
                configured: configuration.bootstrapClientSecret != nil)
            let app = try buildApplication(runtime: runtime) { address in
                logger.info(
                    "Warden listening",
                    metadata: [
                        "address": "\(address.map(String.init(describing:)) ?? "?")",
                        "issuer": "\(runtime.issuer)", "database": "\(Database.redacted(configuration.databaseURL))",
                        "mail": "\(runtime.mailDescription)",
                    ])
            }
            try await app.runService()
        } catch {
            try? await runtime.shutdown()
            try? await store.shutdown()
            throw error
        }
        logger.info("Warden stopped")
        try await runtime.shutdown()
        try await store.shutdown()
    }
}

/// `warden migrate`.
struct Migrate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Apply database migrations and exit.")
    @OptionGroup var options: StoreOptions

    func run() async throws {
        let (store, _, configuration) = try await options.open()
        try await store.shutdown()
        Terminal.stderr("Database is up to date: \(Database.redacted(configuration.databaseURL))")
    }
}

/// `warden keys rotate`.
struct Keys: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Manage signing keys.", subcommands: [Rotate.self])

    struct Rotate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Make a new current signing key for every algorithm in use.",
            discussion: """
                Previous keys stay published in the JWKS until revoked, so tokens they signed keep verifying. \
                Running servers pick the new keys up within 60 seconds.
                """)
        @OptionGroup var options: StoreOptions

        func run() async throws {
            try await options.withRuntime { runtime, logger in
                let made = try await runtime.keys.rotate()
                logger.notice(
                    "signing keys rotated", metadata: ["kids": "\(made.map(\.kid).joined(separator: ","))"])
                for record in made {
                    print("new current \(record.alg.rawValue) key: \(record.kid)")
                }
            }
        }
    }
}

extension StoreOptions {
    /// What a command that only works on the database starts with: the log set up, the configuration, and the
    /// database opened and migrated.
    func open() async throws -> (SQLStore, Logger, WardenConfiguration) {
        let settings = Settings()
        let logger = WardenLogging.bootstrap(label: "warden", settings: try logging(settings))
        let configuration = try configuration(settings)
        return (try await Database.open(configuration, logger: logger), logger, configuration)
    }

    /// Runs `body` with a runtime over the opened database, then closes the database (commands that change the
    /// tenant offline: `keys rotate`, `bootstrap rotate-secret`).
    func withRuntime(_ body: (WardenRuntime, Logger) async throws -> Void) async throws {
        let (store, logger, configuration) = try await open()
        do {
            let runtime = try await WardenRuntime.make(configuration: configuration, store: store, logger: logger)
            do {
                try await body(runtime, logger)
            } catch {
                try? await runtime.shutdown()
                throw error
            }
            try await runtime.shutdown()
        } catch {
            try? await store.shutdown()
            throw error
        }
        try await store.shutdown()
    }
}

/// Opening the configured database.
enum Database {
    static func open(_ configuration: WardenConfiguration, logger: Logger) async throws -> SQLStore {
        let store: SQLStore
        do {
            store = try await SQLStore.connect(url: configuration.databaseURL, logger: logger)
        } catch let error as DatabaseURLError {
            throw ConfigurationError(error.message)
        } catch let error as DatabaseUnreachableError {
            throw ConfigurationError(error.message)
        }
        do {
            try await store.migrate()
        } catch let error as SchemaTooNewError {
            try? await store.shutdown()
            throw ConfigurationError(error.description)
        } catch {
            try? await store.shutdown()
            throw error
        }
        return store
    }

    /// The URL without its password, for logs.
    static func redacted(_ url: String) -> String {
        guard var components = URLComponents(string: url), components.password != nil else { return url }
        components.password = "***"
        return components.string ?? url
    }
}

/// The listen address, checked before anything else starts: a second `warden serve` on a busy port says so in
/// one line instead of logging "listening" and then a socket error.
enum ListenAddress {
    static func ensureAvailable(host: String, port: Int) async throws {
        guard port != 0 else { return }
        do {
            let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                .bind(host: host, port: port).get()
            try await channel.close()
        } catch let error as IOError where error.errnoCode == EADDRINUSE {
            throw ConfigurationError(
                "port \(port) is already in use on \(host) (another Warden?): stop it, or choose another port "
                    + "with --port or WARDEN_PORT")
        } catch let error as IOError where error.errnoCode == EACCES {
            throw ConfigurationError(
                "not allowed to listen on port \(port) (ports below 1024 need privileges): choose another with "
                    + "--port or WARDEN_PORT")
        } catch let error as IOError where error.errnoCode == EADDRNOTAVAIL {
            throw ConfigurationError(
                "cannot listen on \(host): no interface of this machine has that address (--host / WARDEN_HOST)")
        } catch is SocketAddressError {
            throw ConfigurationError("cannot listen on '\(host)': not an address or host name (--host / WARDEN_HOST)")
        }
    }
}
