public import WardenWire

public import struct Foundation.Date

/// A message Warden must get out (an approval e-mail, a ping to a CIBA client, a push): stored before the
/// first attempt so that a failure or a restart never loses it, retried with backoff until it succeeds or
/// `expiresAt` passes (SPEC §6.1 "Delivery").
public struct DeliveryJob: Sendable, Equatable {
    public var id: String
    /// What to do: ``DeliveryJob/Kind``.
    public var kind: Kind
    /// The kind's input, JSON text.
    public var payload: String
    /// Attempts made so far (claims, including the current one).
    public var attempts: Int
    /// When the job may next be claimed; a claim moves it to the end of the claimer's lease.
    public var nextAttemptAt: Date
    /// When the job is given up (the request it serves has expired).
    public var expiresAt: Date
    public var createdAt: Date
    public var lastError: String?

    /// The open set of job kinds.
    public struct Kind: OpenStringValue {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The approval e-mail of a CIBA request (SPEC §6.4).
        public static let backchannelMail: Kind = "ciba_mail"
        /// The ping of a ping-mode CIBA client (CIBA Core §10.2).
        public static let backchannelPing: Kind = "ciba_ping"
        /// A push notification to an authenticator device (SPEC §6.3).
        public static let push: Kind = "push"
    }

    public init(
        id: String, kind: Kind, payload: String, attempts: Int = 0, nextAttemptAt: Date, expiresAt: Date,
        createdAt: Date, lastError: String? = nil
    ) {
        self.id = id
        self.kind = kind
        self.payload = payload
        self.attempts = attempts
        self.nextAttemptAt = nextAttemptAt
        self.expiresAt = expiresAt
        self.createdAt = createdAt
        self.lastError = lastError
    }
}
