import AsyncHTTPClient
import Foundation
public import Logging
public import WardenCore
import WardenMail

/// What every route of one node shares: configuration, storage, caches, keys, the event log and the clock.
public final class WardenRuntime: Sendable {
    public let configuration: WardenConfiguration
    public let store: any WardenStore
    public let cache: TenantCache
    public let keys: KeyManager
    public let eventLog: EventLog
    public let clock: any WardenClock
    public let logger: Logger
    /// Parsed `--trusted-proxies`.
    let trustedProxies: [CIDR]
    /// The outbox of e-mails, pings and pushes (SPEC §6.1 "Delivery"); a background service of the application.
    public let deliveries: DeliveryService
    /// The CIBA requests this node knows to be pending, and their poll pacing (SPEC §6.2).
    let backchannelPolls: BackchannelPollTracker
    /// Authenticator devices (SPEC §6.3).
    let push: any PushNotifier
    /// Device transactions and their tokens (SPEC §7.2).
    let deviceTransactions: DeviceTransactions
    /// The IP database (`--ip-database`, SPEC §8).
    let ipIntelligence = IPIntelligence()
    /// The device streams open on this node (SPEC §7.5).
    let deviceStreams: DeviceStreamHub
    /// Where approval e-mails go: SMTP (`--smtp-url`) or the outbox folder (SPEC §1).
    let mail: any MailTransport
    /// The push services by enrolled service name (SPEC §6.3): the configured APNs, FCM and webhook, and the
    /// stream.
    let pushProviders: [PushService: any PushProvider]
    /// The embedder's hooks that may deny a login, run after the post-login rules (SPEC §8).
    let postLoginPolicies: [any PostLoginPolicy]
    /// Bulk-users import and export jobs (SPEC §9 "Bulk users").
    let userJobs: UserJobRunner
    /// Requests to upstream identity providers (SPEC §15).
    let upstream = UpstreamHTTP.shared
    /// Seals and opens kept upstream tokens under `WARDEN_DATA_KEY` (SPEC §15); `nil` without the key. Made once.
    let sealer: DataKeySealer?
    /// This node's limits on sign-ups and account e-mails (SPEC §15.1).
    let accountLimits: AccountLimits

    /// Connects the pieces; keys are loaded (and created on first start). `postLoginPolicies` run, in this
    /// order, on every login after the enabled post-login rules (SPEC §8).
    public static func make(
        configuration: WardenConfiguration, store: any WardenStore, clock: any WardenClock = SystemClock(),
        logger: Logger, postLoginPolicies: [any PostLoginPolicy] = []
    ) async throws -> WardenRuntime {
        WardenMetrics.bootstrap()
        let keys = try await KeyManager.load(store: store, clock: clock)
        let sender = try MailAddress(parsing: configuration.mailSender)
        let mail = try MailTransports.make(configuration: configuration, logger: logger)
        // Made last of what can fail on bad settings: APNs and FCM clients hold connections to shut down.
        let documents =
            configuration.clientMetadataDocuments
            ? ClientMetadataDocuments(
                fetch: GuardedFetch(
                    allowHosts: Set(configuration.clientMetadataAllowHosts),
                    tls: try OutboundTLS.configuration(
                        caFile: configuration.clientMetadataCAFile, flag: "--client-metadata-ca-file")),
                clock: clock) : nil
        let providers = try PushProviders.make(configuration: configuration, logger: logger)
        let runtime = WardenRuntime(
            configuration: configuration, store: store, keys: keys, clock: clock, logger: logger, mail: mail,
            pushProviders: providers, metadataDocuments: documents, postLoginPolicies: postLoginPolicies)
        do {
            try await runtime.cache.reload()
            try await runtime.userJobs.failInterruptedJobs()
            if let path = configuration.ipDatabasePath {
                try await runtime.ipIntelligence.load(path: path, logger: logger)
            }
        } catch {
            try? await runtime.shutdown()
            throw error
        }
        runtime.deliveries.register(
            BackchannelMailDelivery(
                requests: store, users: store, cache: runtime.cache, mail: runtime.mail, eventLog: runtime.eventLog,
                clock: clock, issuer: runtime.issuer, from: sender, logger: logger))
        runtime.deliveries.register(
            AccountMailDelivery(mail: runtime.mail, from: sender, issuer: runtime.issuer, logger: logger))
        runtime.deliveries.register(BackchannelPingDelivery(requests: store, httpClient: .shared, logger: logger))
        runtime.deliveries.register(
            EnrollmentTicketMailDelivery(
                mail: runtime.mail, from: sender, logger: logger))
        runtime.deliveries.register(
            PushDelivery(
                store: store, tokens: runtime.deviceTransactions.tokens,
                providers: runtime.pushProviders,
                eventLog: runtime.eventLog, clock: clock, logger: logger))
        return runtime
    }

    private init(
        configuration: WardenConfiguration, store: any WardenStore, keys: KeyManager, clock: any WardenClock,
        logger: Logger, mail: any MailTransport, pushProviders: [PushService: any PushProvider],
        metadataDocuments: ClientMetadataDocuments?, postLoginPolicies: [any PostLoginPolicy]
    ) {
        self.configuration = configuration
        self.sealer = configuration.dataKey.flatMap(DataKeySealer.init(key:))
        self.store = store
        self.cache = TenantCache(store: store, documents: metadataDocuments)
        self.keys = keys
        self.clock = clock
        self.logger = logger
        self.trustedProxies = configuration.trustedProxies.compactMap(CIDR.init)
        self.eventLog = EventLog(store: store, logger: logger)
        self.deliveries = DeliveryService(store: store, clock: clock, logger: logger)
        self.backchannelPolls = BackchannelPollTracker()
        let transactions = DeviceTransactions(
            store: store, cache: self.cache, tokens: TransactionToken(keys: keys, issuer: configuration.issuerString),
            issuer: configuration.issuer, clock: clock)
        self.deviceTransactions = transactions
        self.deviceStreams = DeviceStreamHub()
        self.push = DevicePushNotifier(transactions: transactions, deliveries: self.deliveries)
        self.mail = mail
        self.postLoginPolicies = postLoginPolicies
        self.accountLimits = AccountLimits(clock: clock)
        self.userJobs = UserJobRunner(store: store, eventLog: self.eventLog, clock: clock, logger: logger)
        self.pushProviders = pushProviders.merging(
            [.stream: StreamProvider(streams: deviceStreams, changes: store)], uniquingKeysWith: { $1 })
    }

    /// Closes what the runtime holds open beyond the store (the APNs and FCM connections); call it once the
    /// application has stopped.
    public func shutdown() async throws {
        try await PushProviders.shutdown(pushProviders)
    }

    /// Reloads this node's tenant cache after a local change and tells the other nodes (SPEC §2).
    public func tenantChanged() async throws {
        try await cache.reload()
        await store.announce(.tenant)
    }

    /// Where e-mail goes, for the start-up log line (no password).
    public var mailDescription: String {
        switch mail {
        case let smtp as SMTPMailTransport: "\(smtp.url)"
        case let outbox as OutboxMailTransport: "outbox folder \(outbox.directory.path)"
        default: "\(type(of: mail))"
        }
    }

    /// `{issuer}` with its trailing slash.
    public var issuer: String { configuration.issuerString }

    /// Seconds since the epoch, as an integer (JWT NumericDate).
    var nowSeconds: Int { Int(clock.now().timeIntervalSince1970) }
}
