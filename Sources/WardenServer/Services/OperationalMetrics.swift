import Foundation
import Logging
import Metrics
import ServiceLifecycle
import WardenCore
import WardenWire

/// The figures an operator alerts on, beyond requests and tokens (README "Metrics"). Counters count what this
/// node did; sum them across nodes. Gauges sampled from storage (``MetricsSampler``) are the tenant's; take their
/// `max` across nodes.
///
/// | metric | labels | from |
/// | --- | --- | --- |
/// | `warden_sign_ins_total` | `outcome`: `success`, `failure`, `locked` | events `s`; `f`, `fp`, `fu`; `limit_wc` |
/// | `warden_mfa_total` | `event`: `required`, `otp_locked`, `recovery_succeeded`, `recovery_failed` | `mfar`, `gd_otp_rate_limit_exceed`, `gd_recovery_*` (SPEC §12) |
/// | `warden_authenticator_decisions_total` | `decision`: `approved`, `rejected`, `failed` | `gd_auth_*`: CIBA and sign-in pushes |
/// | `warden_ciba_requests_total` | `outcome`: `started`, `refused`, `approved`, `denied`, `redeemed` | `/bc-authorize`, the decision, the token endpoint |
/// | `warden_deliveries_total` | `kind` (`push`, `ciba_mail`, …), `outcome`: `sent`, `retried`, `failed` | the delivery outbox |
/// | `warden_event_log_dropped_total` | | events dropped while storage was unavailable |
/// | `warden_federated_logins_total` | `connection`, `outcome`: `success`, `failure` | `s`, `f` of a connection other than the database (SPEC §15) |
/// | `warden_organization_logins_total` | `outcome`: `admitted`, `refused` | a login for an organization as it ends (SPEC §19) |
/// | `warden_passkey_failures_total` | `check` (WebAuthn's: `challenge`, `origin`, `signature`, …) | a WebAuthn ceremony refused (SPEC §17) |
enum OperationalMetrics {
    /// The counter, and its labels, that a log event type adds one to.
    private static let eventCounters: [LogEventType: (label: String, dimensions: [(String, String)])] = [
        .loginSuccess: ("warden_sign_ins_total", [("outcome", "success")]),
        .loginFailure: ("warden_sign_ins_total", [("outcome", "failure")]),
        .wrongPassword: ("warden_sign_ins_total", [("outcome", "failure")]),
        .unknownUser: ("warden_sign_ins_total", [("outcome", "failure")]),
        .accountLocked: ("warden_sign_ins_total", [("outcome", "locked")]),
        "mfar": ("warden_mfa_total", [("event", "required")]),
        "gd_otp_rate_limit_exceed": ("warden_mfa_total", [("event", "otp_locked")]),
        "gd_recovery_succeed": ("warden_mfa_total", [("event", "recovery_succeeded")]),
        "gd_recovery_failed": ("warden_mfa_total", [("event", "recovery_failed")]),
        .deviceAccepted: ("warden_authenticator_decisions_total", [("decision", "approved")]),
        .deviceRejected: ("warden_authenticator_decisions_total", [("decision", "rejected")]),
        .deviceAuthFailed: ("warden_authenticator_decisions_total", [("decision", "failed")]),
        .cibaStartSucceeded: ("warden_ciba_requests_total", [("outcome", "started")]),
        .cibaStartFailed: ("warden_ciba_requests_total", [("outcome", "refused")]),
        .cibaExchangeSucceeded: ("warden_ciba_requests_total", [("outcome", "redeemed")]),
    ]

    /// Counts what a log event says happened, when it is one of the table's (one dictionary lookup otherwise:
    /// token events pass through here on every request); a sign-in's `s` or `f` through another connection also
    /// by connection.
    static func observe(_ event: WardenCore.LogEvent) {
        guard let counter = eventCounters[event.type] else { return }
        Counter(label: counter.label, dimensions: counter.dimensions).increment()
        guard event.type == .loginSuccess || event.type == .loginFailure else { return }
        let outcome = event.type == .loginSuccess ? "success" : "failure"
        if let strategy = event.details["strategy"]?.stringValue, strategy != "auth0",
            let connection = event.details["connection"]?.stringValue
        {
            Counter(
                label: "warden_federated_logins_total", dimensions: [("connection", connection), ("outcome", outcome)]
            )
            .increment()
        }
    }

    /// A login for an organization admitted or refused as it ends (SPEC §19), an SSO session's included.
    static func organizationLogin(admitted: Bool) {
        Counter(label: "warden_organization_logins_total", dimensions: [("outcome", admitted ? "admitted" : "refused")])
            .increment()
    }

    /// A WebAuthn ceremony refused by `check` (SPEC §17: passkeys and security keys).
    static func passkeyFailure(check: String) {
        Counter(label: "warden_passkey_failures_total", dimensions: [("check", check)]).increment()
    }

    /// A CIBA request's answer, recorded once by the node that stored it (SPEC §6.2).
    static func cibaDecided(approved: Bool) {
        Counter(label: "warden_ciba_requests_total", dimensions: [("outcome", approved ? "approved" : "denied")])
            .increment()
    }

    /// What happened to one attempt of a delivery job (SPEC §6.1 "Delivery").
    enum DeliveryOutcome: String {
        case sent, retried, failed
    }

    static func delivery(_ kind: DeliveryJob.Kind, _ outcome: DeliveryOutcome) {
        Counter(label: "warden_deliveries_total", dimensions: [("kind", kind.rawValue), ("outcome", outcome.rawValue)])
            .increment()
    }
}

/// Samples the storage-backed gauges every ``interval`` (README "Metrics"):
/// `warden_ciba_pending_requests` (undecided, within their expiry), `warden_ciba_expired_requests` (undecided past
/// their expiry, kept a day) and `warden_delivery_queue_depth{kind}` (stored jobs, waiting or retrying).
struct MetricsSampler: Service {
    static let interval = Duration.seconds(15)
    private let store: any GaugeStore
    private let clock: any WardenClock
    private let logger: Logger
    private let pending = Gauge(label: "warden_ciba_pending_requests")
    private let expired = Gauge(label: "warden_ciba_expired_requests")

    init(store: any GaugeStore, clock: any WardenClock, logger: Logger) {
        self.store = store
        self.clock = clock
        self.logger = logger
    }

    /// Reads the figures once and records them; a failed read leaves the last values (and says so at `debug`).
    func sample() async {
        do {
            let requests = try await store.undecidedBackchannelRequests(at: clock.now())
            pending.record(requests.pending)
            expired.record(requests.expired)
            var depths = try await store.deliveryJobCounts()
            for kind in [DeliveryJob.Kind.push, .backchannelMail, .backchannelPing] where depths[kind] == nil {
                depths[kind] = 0
            }
            for (kind, depth) in depths {
                Gauge(label: "warden_delivery_queue_depth", dimensions: [("kind", kind.rawValue)]).record(depth)
            }
        } catch {
            logger.debug("metrics sample failed", metadata: ["error": "\(error)"])
        }
    }

    func run() async throws {
        while !Task.isShuttingDownGracefully, !Task.isCancelled {
            await sample()
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: Self.interval) }
        }
    }
}
