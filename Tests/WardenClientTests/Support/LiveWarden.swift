import AsyncHTTPClient
import Foundation
import Hummingbird
import HummingbirdBcrypt
import NIOCore
import NIOPosix
import ServiceLifecycle
import Synchronization
import Testing
import WardenCore
import WardenServer
import WardenTesting
import WardenWire

/// The database engines the live tests run on.
typealias Engine = TestWarden.Engine

/// A Warden served over real TCP on a free loopback port whose issuer is `http://127.0.0.1:PORT/`, as an
/// application's SDK meets it, with a tenant set up for the SDK's flows.
///
/// The test tenant runs on a manual clock; ``syncClock()`` (called before every request of a
/// ``RecordingTransport``) moves it to the wall clock, so CIBA poll pacing (SPEC §6.2) and token times follow
/// real time, and tests may still move it further ahead.
struct LiveWarden: Sendable {
    static let password = "correct horse battery staple"
    static let callback = URL(string: "https://app.example.com/callback")!
    /// SQLite only: the PostgreSQL test database is shared by the whole test process, and the storage
    /// conformance tests keep placeholder keys there as each algorithm's current signing key (SigningKeyStoreTests),
    /// which a live tenant on it would sign with. The same flows run against the built server on PostgreSQL in the
    /// interoperability suite (tests/interop, scripts/test).
    static let engines: [Engine] = [.sqlite]
    /// Serializes clock moves (each reads then advances the shared clock).
    private static let syncLock = Mutex(())

    let warden: TestWarden
    let issuer: URL
    /// A confidential CIBA client (secret), an API with the `money_transfer` RAR type, a user and a public
    /// native client that may create session transfer tokens.
    let cibaClient: (id: String, secret: String)
    let apiIdentifier: String
    let userID: String
    let email: String
    let nativeClientID: String
    /// The HTTP client of every transport of this server, shut down before the server stops (an idle
    /// keep-alive connection would hold up its graceful shutdown).
    let http: HTTPClient

    /// Runs `body` against a fresh live server on `engine`; `native` changes the native client.
    static func with<Value: Sendable>(
        engine: Engine, native configureNative: @Sendable (inout Client) -> Void = { _ in },
        _ body: @Sendable (LiveWarden) async throws -> Value
    ) async throws -> Value {
        let port = try await freePort()
        let issuer = URL(string: "http://127.0.0.1:\(port)/")!
        let warden = try await TestWarden.make(engine: engine) {
            $0.issuer = issuer
            $0.port = port
        }
        let http = HTTPClient(
            eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: .init(redirectConfiguration: .disallow))
        let live = try await LiveWarden(warden: warden, issuer: issuer, http: http, configureNative: configureNative)
        let server = ServiceGroup(
            configuration: .init(services: [try warden.application()], logger: warden.runtime.logger))
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await server.run() }
            let result: Result<Value, any Error>
            do {
                try await live.waitUntilReady()
                result = .success(try await body(live))
            } catch {
                result = .failure(error)
            }
            try await http.shutdown()
            await server.triggerGracefulShutdown()
            return try result.get()
        }
    }

    private init(
        warden: TestWarden, issuer: URL, http: HTTPClient, configureNative: (inout Client) -> Void
    ) async throws {
        self.warden = warden
        self.issuer = issuer
        self.http = http
        cibaClient = try await warden.makeClient(grantTypes: [.ciba, .refreshToken]) {
            $0.name = "Payments Agent"
            $0.backchannelTokenDeliveryMode = .poll
        }
        let api = try await warden.makeAPI(scopes: ["read:balance", "transfer:funds"]) {
            $0.authorizationDetails = [.init(type: "money_transfer")]
            $0.allowOfflineAccess = true
        }
        apiIdentifier = api.identifier
        nativeClientID = try await warden.makeClient(grantTypes: [.authorizationCode, .refreshToken]) {
            $0.appType = .native
            $0.tokenEndpointAuthMethod = TokenEndpointAuthMethod.none
            $0.callbacks = [Self.callback.absoluteString]
            var transfer = SessionTransferConfiguration()
            transfer.canCreateSessionTransferToken = true
            transfer.enforceDeviceBinding = .none
            $0.sessionTransfer = transfer
            configureNative(&$0)
        }.id
        email = "client-\(RandomToken.identifier(prefix: "", length: 10).lowercased())@example.com"
        userID = try await Self.addUser(warden, email: email)
    }

    /// A user with ``password`` (bcrypt cost 4, as the test tenant's).
    private static func addUser(_ warden: TestWarden, email: String) async throws -> String {
        let user = User(
            userID: "auth0|" + RandomToken.identifier(prefix: "", length: 24), email: email,
            createdAt: warden.clock.now())
        try await warden.runtime.store.insertUser(UserRecord(user: user, passwordHash: Bcrypt.hash(password, cost: 4)))
        return user.userID
    }

    /// A loopback port nobody listens on (the kernel's choice for a socket bound to port 0).
    private static func freePort() async throws -> Int {
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .bind(host: "127.0.0.1", port: 0).get()
        let port = channel.localAddress?.port ?? 0
        try await channel.close()
        return port
    }

    /// The bootstrap management client's credentials (SPEC §1).
    var managementClient: (id: String, secret: String) { (warden.managementClientID, warden.managementClientSecret) }

    /// The tenant's clock, for device JWT times.
    var now: @Sendable () -> Date {
        let clock = warden.clock
        return { clock.now() }
    }

    /// Moves the tenant's clock forward to the wall clock.
    func syncClock() {
        Self.syncLock.withLock { _ in
            let lag = Date().timeIntervalSince(warden.clock.now())
            if lag > 0 { warden.clock.advance(by: lag) }
        }
    }

    /// Moves the tenant's clock `seconds` ahead of the wall clock.
    func advanceClock(by seconds: Double) {
        Self.syncLock.withLock { _ in warden.clock.advance(by: seconds) }
    }

    /// A client of the tenant whose ID tokens are signed with `alg` and live `lifetime` seconds.
    func makeNativeClient(alg: SigningAlgorithm = .rs256, lifetime: Int = 36000) async throws -> String {
        try await warden.makeClient(grantTypes: [.authorizationCode, .refreshToken]) {
            $0.appType = .native
            $0.tokenEndpointAuthMethod = TokenEndpointAuthMethod.none
            $0.callbacks = [Self.callback.absoluteString]
            $0.jwtConfiguration = JWTConfiguration(alg: alg, lifetimeInSeconds: lifetime)
        }.id
    }

    /// A web client that accepts session transfer tokens by query and cookie (SPEC §8).
    func makeWebClient() async throws -> String {
        try await warden.makeClient(grantTypes: [.authorizationCode]) {
            $0.appType = .regularWeb
            $0.tokenEndpointAuthMethod = TokenEndpointAuthMethod.none
            $0.callbacks = [Self.callback.absoluteString]
            var transfer = SessionTransferConfiguration()
            transfer.allowedAuthenticationMethods = ["cookie", "query"]
            $0.sessionTransfer = transfer
        }.id
    }
}

enum LiveWardenError: Error {
    case notReady(URL)
}
