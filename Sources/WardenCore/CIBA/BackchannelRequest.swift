public import WardenWire

public import struct Foundation.Date

/// A CIBA authentication request (CIBA Core §7, SPEC §6) as stored: durable and shared by every node.
///
/// The `auth_req_id` handed to the client is never stored; `id` is its SHA-256 (``ID``). The record is also the
/// consent (SPEC §6.5): `consentID`, `scope`, `audience`, `bindingMessage` and `authorizationDetails` are what
/// the approval page and the authenticator device show.
public struct BackchannelRequest: Sendable, Equatable {
    /// Where a request stands (SPEC §6.2). Each request is decided once and redeemed once.
    public enum Status: String, Sendable, CaseIterable {
        case pending
        case approved
        case denied
        case redeemed
    }

    /// How the user is asked (SPEC §6.1): push for requests of at most 300 s, e-mail beyond.
    public enum Channel: String, Sendable, CaseIterable {
        case push
        case email
    }

    /// What a ping-mode client receives when the request is decided (CIBA Core §10.2). Only ping-mode
    /// requests carry it: the node that records the decision may not be the one that created the request,
    /// so the `auth_req_id` it must send is kept (a poll still needs the client's own credentials).
    public struct Ping: Sendable, Equatable, Codable {
        public var endpoint: String
        public var clientNotificationToken: String
        public var authRequestID: String

        public init(endpoint: String, clientNotificationToken: String, authRequestID: String) {
            self.endpoint = endpoint
            self.clientNotificationToken = clientNotificationToken
            self.authRequestID = authRequestID
        }

        enum CodingKeys: String, CodingKey {
            case endpoint
            case clientNotificationToken = "client_notification_token"
            case authRequestID = "auth_req_id"
        }
    }

    /// SHA-256 of the `auth_req_id`.
    public var id: ID
    /// The consent id, `cns_…` (SPEC §6.5, §7.3).
    public var consentID: String
    public var clientID: String
    public var userID: String
    /// The scopes the tokens will carry: the requested ones filtered by the user's roles (SPEC §6.5, §9).
    public var scope: [String]
    public var audience: String?
    public var bindingMessage: String
    /// The `authorization_details` array exactly as requested (RFC 9396 §2).
    public var authorizationDetails: JSONValue?
    public var channel: Channel
    /// SHA-256 (hex) of the e-mail approval link's token (SPEC §6.4); `nil` for push requests.
    public var approvalTokenHash: String?
    public var ping: Ping?
    public var status: Status
    public var createdAt: Date
    public var expiresAt: Date
    /// When the user approved or denied (the ID token's `auth_time`).
    public var decidedAt: Date?

    public init(
        id: ID, consentID: String, clientID: String, userID: String, scope: [String], audience: String?,
        bindingMessage: String, authorizationDetails: JSONValue?, channel: Channel, approvalTokenHash: String?,
        ping: Ping?, status: Status = .pending, createdAt: Date, expiresAt: Date, decidedAt: Date? = nil
    ) {
        self.id = id
        self.consentID = consentID
        self.clientID = clientID
        self.userID = userID
        self.scope = scope
        self.audience = audience
        self.bindingMessage = bindingMessage
        self.authorizationDetails = authorizationDetails
        self.channel = channel
        self.approvalTokenHash = approvalTokenHash
        self.ping = ping
        self.status = status
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.decidedAt = decidedAt
    }

    /// Whether the request can no longer be decided or redeemed at `now`.
    public func isExpired(at now: Date) -> Bool { now >= expiresAt }
}

/// What inserting a request under the per-user limit found (SPEC §6.1).
public enum BackchannelInsertResult: Sendable, Equatable {
    case inserted
    /// The user already has `limit` requests in the window; the oldest of them leaves it at `retryAt`.
    case limited(retryAt: Date)
}

/// What recording a user's decision found (SPEC §6.2, §7.4).
public enum BackchannelDecision: Sendable, Equatable {
    /// This call decided it (exactly one of N concurrent callers); the record as now stored.
    case decided(BackchannelRequest)
    /// Someone decided it before (or it was redeemed).
    case alreadyDecided(BackchannelRequest)
    case expired(BackchannelRequest)
    case notFound
}

/// What redeeming an approved request found (SPEC §6.2).
public enum BackchannelRedemption: Sendable, Equatable {
    /// This call redeemed it (exactly one of N concurrent callers).
    case redeemed(BackchannelRequest)
    /// Unknown, another client's, not approved, expired or already redeemed: the record, when it exists,
    /// says which.
    case refused(BackchannelRequest?)
}
