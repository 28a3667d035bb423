public import WardenWire

public import struct Foundation.Date

/// A sign-in push (SPEC §12 `/u/mfa/push`): a login transaction sent to every push device of the user, answered
/// with the same `resolve-transaction` as a CIBA request (SPEC §7.4) but with no consent behind it (no
/// `txlnkid`). It lives ``lifetime`` seconds and is decided once; the hosted page that started it finds it again
/// by the SHA-256 of its login transaction's `state`.
public struct LoginChallenge: Sendable, Equatable {
    /// SPEC §12: the transaction lives 5 minutes.
    public static let lifetime: Double = 300
    /// Push fatigue (SPEC §12 threat model): at most this many sign-in pushes wait for one user at a time; a
    /// further sign-in gets no push until one is answered or expires.
    public static let pendingLimit = 3

    /// Shares the CIBA requests' identifier space: a device transaction names either (SPEC §7.2).
    public typealias ID = BackchannelRequest.ID

    public struct Status: OpenStringValue {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        public static let pending: Status = "pending"
        public static let approved: Status = "approved"
        public static let rejected: Status = "rejected"
    }

    public var id: ID
    /// SHA-256 (hex) of the `state` of the hosted login transaction that sent it.
    public var transactionHash: String
    public var userID: String
    public var clientID: String
    public var status: Status
    /// `s` of SPEC §7.2: the browser and operating system of the sign-in, when known.
    public var source: JSONValue?
    /// `l` of SPEC §7.2: where the sign-in comes from, when the IP database knows.
    public var location: JSONValue?
    public var createdAt: Date
    public var expiresAt: Date
    public var decidedAt: Date?

    public init(
        id: ID, transactionHash: String, userID: String, clientID: String, status: Status = .pending,
        source: JSONValue?, location: JSONValue?, createdAt: Date, expiresAt: Date, decidedAt: Date? = nil
    ) {
        self.id = id
        self.transactionHash = transactionHash
        self.userID = userID
        self.clientID = clientID
        self.status = status
        self.source = source
        self.location = location
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.decidedAt = decidedAt
    }

    /// Whether the challenge can no longer be answered at `now`.
    public func isExpired(at now: Date) -> Bool { expiresAt <= now }
}

/// What deciding a ``LoginChallenge`` did: exactly one of concurrent answers decides it.
public enum LoginChallengeDecision: Sendable, Equatable {
    case decided(LoginChallenge)
    case alreadyDecided(LoginChallenge)
    case expired(LoginChallenge)
    case notFound
}
