import Foundation
public import Hummingbird
public import HummingbirdTesting
import Logging
import NIOCore
import NIOFoundationCompat
import Synchronization
public import WardenCore
public import WardenServer
import WardenStorage
import WardenWire

/// An in-process Warden for tests: a fresh in-memory SQLite database (or `WARDEN_TEST_POSTGRES_URL` when
/// `engine` is `.postgres`), bootstrapped like a first start, with a manual clock.
public struct TestWarden: Sendable {
    public let runtime: WardenRuntime
    public let clock: ManualClock
    public let managementClientID: String
    public let managementClientSecret: String

    /// Which database a test runs on.
    public enum Engine: String, Sendable, CaseIterable {
        case sqlite, postgres
        /// Whether this engine can run here (PostgreSQL needs `WARDEN_TEST_POSTGRES_URL`).
        public var isAvailable: Bool {
            self == .sqlite || ProcessInfo.processInfo.environment["WARDEN_TEST_POSTGRES_URL"] != nil
        }
    }

    /// Starts a fresh tenant, with the embedder's `postLoginPolicies` (SPEC §8).
    public static func make(
        engine: Engine = .sqlite, postLoginPolicies: [any PostLoginPolicy] = [],
        configure: (inout WardenConfiguration) -> Void = { _ in }
    ) async throws -> TestWarden {
        var configuration = WardenConfiguration(issuer: URL(string: "http://127.0.0.1:8080/")!)
        configuration.bcryptCost = 4
        configure(&configuration)
        var logger = Logger(label: "warden-test")
        logger.logLevel = .warning
        let store = try await StoreRegistry.shared.store(engine: engine, logger: logger)
        let clock = ManualClock()
        let secret = RandomToken.make()
        let clientID = "mgmt-" + RandomToken.identifier(prefix: "", length: 12)
        configuration.bootstrapClientID = clientID
        configuration.bootstrapClientSecret = secret
        if engine == .sqlite {
            // Each tenant would otherwise generate its own RSA-2048 key on a cooperative thread: hundreds of
            // tests doing so starve the pool. They share one key pair under their own kid.
            var key = TestKeys.rs256
            key.kid = RandomToken.make(bytes: 16)
            try await store.insertCurrentSigningKey(key)
        }
        let runtime = try await WardenRuntime.make(
            configuration: configuration, store: store, clock: clock, logger: logger,
            postLoginPolicies: postLoginPolicies)
        try await Bootstrap(runtime: runtime).run()
        return TestWarden(
            runtime: runtime, clock: clock, managementClientID: clientID, managementClientSecret: secret)
    }

    /// The application, for `app.test(.router) { client in … }`.
    public func application() throws -> some ApplicationProtocol {
        try buildApplication(runtime: runtime)
    }

    /// Runs `body` with an in-process test client.
    public func test<Value: Sendable>(
        _ body: @Sendable (any TestClientProtocol) async throws -> Value
    ) async throws -> Value {
        try await application().test(.router, body)
    }

    /// A Management API token with every scope (or `scopes`), minted through `client_credentials`.
    public func managementToken(client: some TestClientProtocol) async throws -> String {
        let body =
            "grant_type=client_credentials&client_id=\(managementClientID)&client_secret=\(managementClientSecret)"
            + "&audience=\(runtime.configuration.managementAudience.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)"
        let response = try await client.execute(
            uri: "/oauth/token", method: .post,
            headers: [.contentType: "application/x-www-form-urlencoded"], body: ByteBuffer(string: body))
        let json = try JSONValue(parsing: response.body.readableBytesView)
        guard let token = json["access_token"]?.stringValue else {
            throw TestWardenError.noToken(String(buffer: response.body))
        }
        return token
    }

    /// Waits until queued log events are written.
    public func flushLogs() async {
        await runtime.eventLog.flush()
    }
}

/// A failure of the test fixture itself.
public enum TestWardenError: Error {
    case noToken(String)
}

/// Keeps test databases open for the life of the test process: SQLite connections must be closed before
/// they are released, and a test process may create hundreds of tenants. Each SQLite tenant gets its own
/// in-memory database; PostgreSQL tenants share one pool on `WARDEN_TEST_POSTGRES_URL` (tests use unique ids).
actor StoreRegistry {
    static let shared = StoreRegistry()
    private var sqlite: [SQLStore] = []
    /// One connection for every PostgreSQL tenant: a task, so tenants made concurrently while it connects (the
    /// actor is reentrant across the `await`) share it instead of each opening — and dropping — a pool.
    private var postgres: Task<SQLStore, any Error>?

    func store(engine: TestWarden.Engine, logger: Logger) async throws -> SQLStore {
        switch engine {
        case .sqlite:
            let store = try await SQLStore.connect(url: "sqlite::memory:", logger: logger)
            try await store.migrate()
            sqlite.append(store)
            return store
        case .postgres:
            if let postgres { return try await postgres.value }
            let url = ProcessInfo.processInfo.environment["WARDEN_TEST_POSTGRES_URL"]!
            let connecting = Task {
                let store = try await SQLStore.connect(url: url, logger: logger)
                try await store.migrate()
                return store
            }
            postgres = connecting
            return try await connecting.value
        }
    }
}

/// Key material generated once per test process.
enum TestKeys {
    static let rs256: SigningKeyRecord = try! JWSKey.generate(alg: .rs256, now: Date())
}
