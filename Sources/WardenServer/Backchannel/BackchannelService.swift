import Foundation
import WardenCore
import WardenWire

/// The life of a CIBA request (CIBA Core §7–§10, SPEC §6): start (store, deliver), decide (once, by any
/// node), and the announcement that lets every node's ``BackchannelPollTracker`` see the decision.
struct BackchannelService: Sendable {
    let requests: any BackchannelRequestStore
    /// Where a decision is announced to every node.
    let announcements: any ChangeChannel
    /// The push-enrolled devices of short requests (SPEC §6.1).
    let push: any PushNotifier
    /// The outbox of approval e-mails and pings.
    let deliveries: DeliveryService
    /// This node's pending requests.
    let polls: BackchannelPollTracker
    let clock: any WardenClock

    /// A service storing requests in `requests`, reaching users through `push` or an e-mail queued on
    /// `deliveries`, tracking them in `polls` and announcing decisions on `announcements`.
    init(
        requests: any BackchannelRequestStore, announcements: any ChangeChannel, push: any PushNotifier,
        deliveries: DeliveryService, polls: BackchannelPollTracker, clock: any WardenClock
    ) {
        self.requests = requests
        self.announcements = announcements
        self.push = push
        self.deliveries = deliveries
        self.polls = polls
        self.clock = clock
    }

    /// SPEC §6.1: at most 5 accepted requests per minute per user, across clients and nodes.
    static let perUserLimit = 5
    static let limitWindow: Double = 60
    /// SPEC §6.1: requests of at most this many seconds go to push devices, longer ones by e-mail.
    static let pushChannelMaximumExpiry = 300

    /// A validated `/bc-authorize` request.
    struct Start: Sendable {
        var client: Client
        var user: User
        /// The scopes the tokens will carry (requested, filtered by RBAC).
        var scope: [String]
        var audience: String?
        var bindingMessage: String
        var authorizationDetails: JSONValue?
        var requestedExpiry: Int
        var clientNotificationToken: String?
    }

    /// Stores the request and starts its delivery; returns the `auth_req_id`. Throws `invalid_request` when
    /// the user cannot be reached on the request's channel and `too_many_requests` (429, `Retry-After`) over
    /// the per-user limit.
    func start(_ start: Start) async throws -> String {
        let now = clock.now()
        let channel: BackchannelRequest.Channel =
            start.requestedExpiry <= Self.pushChannelMaximumExpiry ? .push : .email
        switch channel {
        case .push:
            guard try await push.hasPushEnrolledDevice(userID: start.user.userID) else {
                throw OAuthError.invalidRequest("user has no push-enrolled device")
            }
        case .email:
            guard let email = start.user.email, !email.isEmpty else {
                throw OAuthError.invalidRequest("user has no e-mail address")
            }
        }
        let authRequestID = RandomToken.make()
        let id = BackchannelRequest.ID(authRequestID: authRequestID)
        let approvalToken = channel == .email ? RandomToken.make() : nil
        var ping: BackchannelRequest.Ping?
        if start.client.backchannelTokenDeliveryMode == .ping,
            let endpoint = start.client.backchannelClientNotificationEndpoint,
            let token = start.clientNotificationToken
        {
            ping = .init(endpoint: endpoint, clientNotificationToken: token, authRequestID: authRequestID)
        }
        let request = BackchannelRequest(
            id: id, consentID: RandomToken.identifier(prefix: "cns_"), clientID: start.client.clientID,
            userID: start.user.userID, scope: start.scope, audience: start.audience,
            bindingMessage: start.bindingMessage, authorizationDetails: start.authorizationDetails, channel: channel,
            approvalTokenHash: approvalToken.map(SecretHash.sha256Hex), ping: ping, createdAt: now,
            expiresAt: now.addingTimeInterval(Double(start.requestedExpiry)))
        // The e-mail's job is stored with the request (SPEC §6.1 "Delivery": never lost), in one transaction.
        let mail = approvalToken.map { token in
            deliveries.prepare(
                kind: .backchannelMail,
                payloads: [BackchannelMailDelivery.Payload(requestID: id, approvalToken: token).json],
                expiresAt: request.expiresAt)
        }
        let inserted: BackchannelInsertResult
        do {
            inserted = try await requests.insertBackchannelRequest(
                request, limit: Self.perUserLimit, window: Self.limitWindow, deliveryJobs: mail?.jobs ?? [])
        } catch {
            if let mail { deliveries.release(mail) }
            throw error
        }
        if case .limited(let retryAt) = inserted {
            if let mail { deliveries.release(mail) }
            // Whole seconds, rounded up; storage keeps milliseconds, so ignore a sub-millisecond excess.
            let seconds = max(1, Int((retryAt.timeIntervalSince(now) - 0.001).rounded(.up)))
            throw OAuthError(
                .tooManyRequests, "Too many requests for this user. Try again in \(seconds) seconds.",
                headers: [(name: "Retry-After", value: String(seconds))])
        }
        polls.trackPending(id, clientID: start.client.clientID, expiresAt: request.expiresAt)
        if let mail {
            deliveries.dispatch(mail)
        } else {
            try await push.notify(request)
        }
        return authRequestID
    }

    /// Records the user's answer: exactly one decision per request, whichever node or device gives it. Tells
    /// every node (SPEC §6.2) and, for a ping-mode client, queues the ping (CIBA Core §10.2).
    func decide(_ request: BackchannelRequest, approved: Bool) async throws -> BackchannelDecision {
        let decision = try await requests.decideBackchannelRequest(
            id: request.id, approved: approved, at: clock.now())
        guard case .decided(let decided) = decision else { return decision }
        OperationalMetrics.cibaDecided(approved: approved)
        polls.markUnverified(decided.id)
        await announcements.announce(.backchannelDecided(requestID: decided.id))
        if decided.ping != nil {
            try await deliveries.submit(
                kind: .backchannelPing, payload: BackchannelPingDelivery.Payload(requestID: decided.id).json,
                expiresAt: decided.expiresAt)
        }
        return decision
    }
}
