import Foundation
import WardenCore
import WardenWire

/// `urn:openid:params:grant-type:ciba` (CIBA Core §10.1, §11, SPEC §6.2): the client polls with its
/// `auth_req_id` until the user decides, then redeems the approval once for the user's tokens, with the
/// request's `authorization_details` (RFC 9396 §7) in the response and in the access token.
///
/// A poll of a request this node knows to be pending is answered from ``BackchannelPollTracker`` without
/// storage; pacing (`slow_down`) is per node. Otherwise the request is read from storage, and an approval is
/// redeemed with one conditional UPDATE, so of concurrent polls exactly one gets the tokens.
struct CIBAGrant: GrantHandler {
    let requests: any BackchannelRequestStore
    /// This node's pending requests and their poll pacing.
    let polls: BackchannelPollTracker
    let issuer: TokenIssuer
    let clock: any WardenClock
    var grantType: GrantType { .ciba }
    /// CIBA clients are confidential (CIBA Core §4).
    var requiresClientAuthentication: Bool { true }
    var failureEvent: LogEventType { .cibaExchangeFailed }

    /// A handler answering polls from `polls` when it can, else from `requests`, and issuing through `issuer`.
    init(
        requests: any BackchannelRequestStore, polls: BackchannelPollTracker, issuer: TokenIssuer,
        clock: any WardenClock
    ) {
        self.requests = requests
        self.polls = polls
        self.issuer = issuer
        self.clock = clock
    }

    static let pendingDescription = "The end-user authorization is pending"
    static let deniedDescription = "The end-user denied the authorization request or it has been expired"

    func exchange(_ request: TokenRequest) async throws -> TokenResponse {
        let clientID = request.client.client.clientID
        let id = BackchannelRequest.ID(authRequestID: try request.require("auth_req_id"))
        let tracker = polls
        switch tracker.poll(id, clientID: clientID, now: clock.now()) {
        case .pending: throw Self.pending
        case .slowDown(let interval): throw Self.slowDown(interval)
        case .expired: throw Self.expired
        case .foreign: throw Self.invalidGrant
        case .unverified: break
        }
        // Not known to be pending here: read storage (one SELECT; the UPDATE only to redeem an approval).
        let now = clock.now()
        guard let record = try await requests.backchannelRequest(id: id), record.clientID == clientID else {
            throw Self.invalidGrant
        }
        switch record.status {
        case .redeemed:
            tracker.forget(id)
            throw Self.invalidGrant
        case .denied:
            throw Self.denied
        case _ where record.isExpired(at: now):
            throw Self.expired
        case .pending:
            tracker.trackPending(id, clientID: clientID, expiresAt: record.expiresAt)
            if case .slowDown(let interval) = tracker.poll(id, clientID: clientID, now: now) {
                throw Self.slowDown(interval)
            }
            throw Self.pending
        case .approved:
            switch try await requests.redeemBackchannelRequest(id: id, clientID: clientID, at: now) {
            case .redeemed(let redeemed):
                tracker.forget(id)
                return try await tokens(for: redeemed, request: request)
            case .refused(let current):
                // Redeemed by a concurrent poll, or expired in between.
                throw current?.isExpired(at: now) == true && current?.status == .approved
                    ? Self.expired : Self.invalidGrant
            }
        }
    }

    private func tokens(for record: BackchannelRequest, request: TokenRequest) async throws -> TokenResponse {
        let user = try await issuer.activeUser(id: record.userID)
        let response = try await issuer.userTokens(
            .init(
                client: request.client.client, user: user, scope: record.scope, audience: record.audience,
                authorizationDetails: record.authorizationDetails, sessionID: nil,
                authTime: record.decidedAt ?? clock.now(), nonce: nil, familyID: RandomToken.make(bytes: 16)),
            refreshToken: .whenOffered)
        issuer.count(.ciba)
        issuer.log(
            .cibaExchangeSucceeded, request: request, clientID: record.clientID, audience: record.audience,
            scope: record.scope.joined(separator: " "), userID: record.userID)
        return response
    }

    /// Whether a failed poll is worth an event: the answers of a request still pending are not, so polling
    /// never writes to storage.
    func logs(_ error: OAuthError) -> Bool {
        error.code != .authorizationPending && error.code != .slowDown
    }

    static let pending = OAuthError(.authorizationPending, pendingDescription)
    static let expired = OAuthError(.expiredToken, "The auth_req_id has expired")
    static let denied = OAuthError(.accessDenied, deniedDescription)
    static let invalidGrant = OAuthError(.invalidGrant, "Invalid or already redeemed auth_req_id")

    static func slowDown(_ interval: Int) -> OAuthError {
        OAuthError(
            .slowDown, "You are polling faster than allowed. Try again in \(interval) seconds.",
            headers: [(name: "Retry-After", value: String(interval))],
            extraFields: ["interval": .number(Double(interval))])
    }
}
