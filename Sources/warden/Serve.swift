import ArgumentParser
import Foundation
import Hummingbird
import Logging
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
            printed once on stderr.
            """)

    @OptionGroup var options: ServerOptions
    @Flag(help: "Seed the demo tenant (idempotent) and print a quick start.") var demo = false

    func run() async throws {
        let configuration = try options.resolve()
        let logger = WardenLogging.bootstrap(label: "warden")
        let store = try await Database.open(configuration, logger: logger)
        let runtime: WardenRuntime
        do {
            runtime = try await WardenRuntime.make(configuration: configuration, store: store, logger: logger)
        } catch {
            try? await store.shutdown()
            throw error
        }
        do {
            let outcome = try await Bootstrap(runtime: runtime).run()
            if let created = outcome.createdClient {
                Terminal.printManagementClient(id: created.id, secret: created.secret, issuer: runtime.issuer)
            }
            if demo {
                let seeded = try await DemoTenant(runtime: runtime).seed()
                Terminal.printQuickStart(seeded, issuer: runtime.issuer)
            }
            let app = try buildApplication(runtime: runtime)
            logger.info(
                "Warden listening",
                metadata: [
                    "issuer": "\(runtime.issuer)", "database": "\(Database.redacted(configuration.databaseURL))",
                    "mail": "\(runtime.mailDescription)",
                ])
            try await app.runService()
        } catch {
            try? await runtime.shutdown()
            try? await store.shutdown()
            throw error
        }
        try await runtime.shutdown()
        try await store.shutdown()
    }
}

/// `warden migrate`.
struct Migrate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Apply database migrations and exit.")
    @OptionGroup var options: ServerOptions

    func run() async throws {
        let configuration = try options.resolve()
        let logger = WardenLogging.bootstrap(label: "warden")
        let store = try await Database.open(configuration, logger: logger)
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
        @OptionGroup var options: ServerOptions

        func run() async throws {
            let configuration = try options.resolve()
            let logger = WardenLogging.bootstrap(label: "warden")
            let store = try await Database.open(configuration, logger: logger)
            do {
                let runtime = try await WardenRuntime.make(configuration: configuration, store: store, logger: logger)
                for record in try await runtime.keys.rotate() {
                    print("new current \(record.alg.rawValue) key: \(record.kid)")
                }
            } catch {
                try? await store.shutdown()
                throw error
            }
            try await store.shutdown()
        }
    }
}

/// Opening the configured database.
enum Database {
    static func open(_ configuration: WardenConfiguration, logger: Logger) async throws -> SQLStore {
        let store = try await SQLStore.connect(url: configuration.databaseURL, logger: logger)
        do {
            try await store.migrate()
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
