public import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import HummingbirdWebSocket
import Logging
public import NIOCore
import NIOSSL
import WardenCore

/// Builds the router with every route and middleware of Warden.
public func buildRouter(runtime: WardenRuntime) -> Router<WardenRequestContext> {
    let router = Router(context: WardenRequestContext.self)
    router.middlewares.add(RequestIDMiddleware())
    router.middlewares.add(RequestLogMiddleware())
    router.middlewares.add(MetricsMiddleware())
    router.middlewares.add(ErrorMiddleware(store: runtime.store))
    router.middlewares.add(DatabaseDeadlineMiddleware())
    let grants = runtime.makeGrantRegistry()
    HealthController(store: runtime.store).addRoutes(to: router)
    DiscoveryController(
        issuer: runtime.issuer, userinfoEndpoint: runtime.configuration.userinfoAudience,
        grantTypes: grants.grantTypes, keys: runtime.keys, tenant: runtime.cache,
        registrationMode: runtime.configuration.registration,
        clientMetadataDocuments: runtime.configuration.clientMetadataDocuments
    ).addRoutes(to: router)
    TokenController(
        grants: grants, clients: runtime.makeClientAuthenticator(), registrations: runtime.store,
        eventLog: runtime.eventLog, clock: runtime.clock, trustedProxies: runtime.trustedProxies
    ).addRoutes(to: router)
    let flow = runtime.authorizationFlow
    let postLogin = runtime.postLoginCheck
    let secondFactor = runtime.secondFactor(flow: flow)
    let federation = FederatedLogin(
        connections: runtime.store, users: runtime.store, artefacts: runtime.store, http: runtime.upstream,
        keys: runtime.keys, clock: runtime.clock, issuer: runtime.issuer, secureCookies: flow.sessions.secureCookies,
        sealer: runtime.sealer, organizations: runtime.cache)
    let passwords = PasswordAuthenticator(
        store: runtime.store, eventLog: runtime.eventLog, clock: runtime.clock,
        bcryptCost: runtime.configuration.bcryptCost)
    let federatedSignIn = FederatedSignIn(
        flow: flow, postLogin: postLogin, secondFactor: secondFactor, upstreamSessions: federation.sessions)
    AuthorizeController(
        validator: AuthorizationRequestValidator(tenant: runtime.cache), flow: flow,
        passwords: passwords,
        passkeys: PasskeyAuthenticator(
            ceremonies: runtime.passkeyCeremonies, users: runtime.store, connections: runtime.store,
            eventLog: runtime.eventLog, clock: runtime.clock),
        postLogin: postLogin, secondFactor: secondFactor,
        sessionTransfer: SessionTransferConsumer(
            flow: flow, transferTokens: runtime.store, users: runtime.store, refreshTokens: runtime.store,
            sessions: runtime.store, postLogin: postLogin, secondFactor: secondFactor, eventLog: runtime.eventLog,
            clock: runtime.clock),
        federation: federation, accounts: runtime.accountService, tenant: runtime.cache, database: runtime.store,
        trustedProxies: runtime.trustedProxies
    ).addRoutes(to: router)
    AccountPagesController(
        accounts: runtime.accountService, flow: flow, database: runtime.store, trustedProxies: runtime.trustedProxies
    ).addRoutes(to: router)
    DatabaseConnectionsController(
        accounts: runtime.accountService, tenant: runtime.cache, trustedProxies: runtime.trustedProxies
    ).addRoutes(to: router)
    runtime.passkeyEnrollmentOffer.addRoutes(to: router, flow: flow, database: runtime.store)
    PasskeyController(
        ceremonies: runtime.passkeyCeremonies, accounts: runtime.accountService, tenant: runtime.cache,
        connections: runtime.store, trustedProxies: runtime.trustedProxies
    ).addRoutes(to: router)
    let links = AccountLinkController(
        flow: flow, federation: federation, signIn: federatedSignIn, passwords: passwords, tenant: runtime.cache,
        database: runtime.store, trustedProxies: runtime.trustedProxies)
    links.addRoutes(to: router)
    UpstreamCallbackController(
        federation: federation, flow: flow, signIn: federatedSignIn, links: links, tenant: runtime.cache,
        eventLog: runtime.eventLog, clock: runtime.clock, database: runtime.store,
        trustedProxies: runtime.trustedProxies
    ).addRoutes(to: router)
    SecondFactorPages(
        secondFactor: secondFactor,
        codes: OneTimeCodeVerifier(devices: runtime.store, authenticators: runtime.store, clock: runtime.clock),
        recoveryCodes: runtime.recoveryCodes, deviceTransactions: runtime.deviceTransactions,
        deliveries: runtime.deliveries, tenant: runtime.cache, issuer: runtime.issuer,
        ceremonies: runtime.passkeyCeremonies
    ).addRoutes(to: router)
    BackchannelAuthorizeController(
        clients: runtime.makeClientAuthenticator(), scopes: runtime.scopePolicy, service: runtime.backchannelService,
        users: runtime.store, tenant: runtime.cache, eventLog: runtime.eventLog, clock: runtime.clock,
        issuer: runtime.issuer, trustedProxies: runtime.trustedProxies
    ).addRoutes(to: router)
    BackchannelApprovalController(
        flow: flow, service: runtime.backchannelService, requests: runtime.store,
        tenant: runtime.cache, eventLog: runtime.eventLog, clock: runtime.clock,
        trustedProxies: runtime.trustedProxies
    ).addRoutes(to: router)
    EnrollmentTicketPageController(tickets: runtime.enrollmentTickets, issuer: runtime.issuer).addRoutes(to: router)
    // The device API and rich consents answer in the Management shape (SPEC §7), the Management API too (§9).
    let managementShaped = ErrorMiddleware(store: runtime.store, shape: .management, logsRefusals: false)
    let deviceAPI = router.group().add(middleware: managementShaped)
    DeviceAPIController(runtime: runtime).addRoutes(to: deviceAPI)
    DeviceStreamController(runtime: runtime).addRoutes(to: deviceAPI)
    RichConsentsController(runtime: runtime).addRoutes(to: deviceAPI)
    LogoutController(
        sessions: flow.sessions, upstreamSessions: federation.sessions, basePath: flow.basePath,
        keys: runtime.keys, tenant: runtime.cache, eventLog: runtime.eventLog, clock: runtime.clock,
        issuer: runtime.issuer, trustedProxies: runtime.trustedProxies
    ).addRoutes(to: router)
    DemoTenant.addRoutes(to: router, issuer: runtime.issuer, codes: runtime.store, clock: runtime.clock)
    RevocationController(
        clients: runtime.makeClientAuthenticator(), refreshTokens: runtime.store,
        familyRevocation: runtime.refreshTokenFamilyRevocation, issuer: runtime.makeTokenIssuer(),
        clock: runtime.clock, trustedProxies: runtime.trustedProxies
    ).addRoutes(to: router)
    IntrospectionController(
        clients: runtime.makeClientAuthenticator(), accessTokens: runtime.accessTokenVerifier,
        revocations: runtime.accessTokenRevocation, tenant: runtime.cache, refreshTokens: runtime.store,
        users: runtime.store, clock: runtime.clock, issuer: runtime.issuer
    ).addRoutes(to: router)
    UserInfoController(
        accessTokens: runtime.accessTokenVerifier, revocations: runtime.accessTokenRevocation, users: runtime.store,
        clock: runtime.clock, audience: runtime.configuration.userinfoAudience
    ).addRoutes(to: router)
    ClientRegistrationController(
        mode: runtime.configuration.registration, clients: runtime.store,
        managementAuth: ManagementAuthMiddleware(runtime: runtime),
        limiter: AddressRateLimiter(clock: runtime.clock),
        eventLog: runtime.eventLog, clock: runtime.clock, trustedProxies: runtime.trustedProxies
    ).addRoutes(to: router)
    OpenAPIController(registration: runtime.configuration.registration != .off).addRoutes(to: router)
    let management = router.group("api/v2").add(middleware: managementShaped)
        .add(middleware: ManagementAuthMiddleware(runtime: runtime))
    ManagementAPI(runtime: runtime).addRoutes(to: management)
    HomePage.addRoutes(to: router, issuer: runtime.issuer)
    runtime.makeConsoleController(federation: federation).addRoutes(to: router)
    router.middlewares.add(UnmatchedRouteMiddleware(routes: router.routes))
    return router
}

/// Builds the Warden application: the router, the background services (event log, cache refresh, deliveries,
/// housekeeping, the IP database's reload on SIGHUP), the WebSocket upgrade of the device stream (SPEC §7.5) and,
/// with `--tls-cert`/`--tls-key`, an HTTPS listener. `onServerRunning` is called once the listener is bound (with
/// the address it is bound to), so "listening" is said only when it is true.
public func buildApplication(
    runtime: WardenRuntime, onServerRunning: @escaping @Sendable (SocketAddress?) async -> Void = { _ in }
) throws -> some ApplicationProtocol {
    let configuration = runtime.configuration
    let address = BindAddress.hostname(configuration.host, port: configuration.port)
    let serverConfiguration = ApplicationConfiguration(address: address, serverName: "Warden")
    let prepared = PreparedResponses(
        keys: runtime.keys.ring, serverName: serverConfiguration.serverName ?? "Warden", logger: runtime.logger)
    let http: HTTPServerBuilder = .http1WebSocketUpgrade(
        webSocketRouter: DeviceStreamController(runtime: runtime).webSocketRouter,
        configuration: DeviceStreamController.configuration(handlers: { [prepared.handler()] }))
    var server = http
    if let cert = configuration.tlsCertificatePath, let key = configuration.tlsKeyPath {
        let chain = try NIOSSLCertificate.fromPEMFile(cert).map { NIOSSLCertificateSource.certificate($0) }
        let tls = TLSConfiguration.makeServerConfiguration(
            certificateChain: chain, privateKey: .privateKey(try NIOSSLPrivateKey(file: key, format: .pem)))
        server = try .tls(http, tlsConfiguration: tls)
    }
    return Application(
        router: buildRouter(runtime: runtime),
        server: server,
        configuration: serverConfiguration,
        services: [
            runtime.eventLog, CacheRefreshService(runtime: runtime), runtime.deliveries,
            HousekeepingService(runtime: runtime),
            IPDatabaseReloadService(ipIntelligence: runtime.ipIntelligence, logger: runtime.logger),
            MetricsSampler(store: runtime.store, clock: runtime.clock, logger: runtime.logger),
        ],
        onServerRunning: { channel in await onServerRunning(channel.localAddress) },
        logger: runtime.logger
    )
}
