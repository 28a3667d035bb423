public import struct Foundation.Date

/// A page request: `page` from 0, `perPage` items (SPEC §9: at most 100).
public struct PageRequest: Sendable, Equatable {
    public var page: Int
    public var perPage: Int
    public init(page: Int, perPage: Int) {
        self.page = page
        self.perPage = perPage
    }
    public var offset: Int { page * perPage }
}

/// One page of results and the total count of matches.
public struct PageResult<Item: Sendable>: Sendable {
    public var items: [Item]
    public var total: Int
    public init(items: [Item], total: Int) {
        self.items = items
        self.total = total
    }
}

/// Why a storage operation did not happen.
public enum StorageError: Error, Sendable, Equatable {
    /// A unique key is taken (a client id, an API identifier, an e-mail address, …).
    case conflict(String)
    /// The record to change does not exist.
    case notFound
    /// The record belongs to a revoked group: a refresh token of a revoked family (RFC 9700 §4.14.2).
    case revoked
}

/// A client as stored: the Management object plus the SHA-256 hash of its secret (SPEC §3).
public struct ClientRecord: Sendable, Equatable {
    public var client: Client
    public var secretHash: String?
    public var createdAt: Date
    public var updatedAt: Date
    /// When housekeeping deletes the client: a registered client (SPEC §13) 30 days after its last token;
    /// `nil` (never) for the clients an operator makes.
    public var expiresAt: Date?

    public init(client: Client, secretHash: String?, createdAt: Date, updatedAt: Date, expiresAt: Date? = nil) {
        self.client = client
        self.secretHash = secretHash
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.expiresAt = expiresAt
    }
}

/// A user as stored: the profile plus the bcrypt hash of the password.
public struct UserRecord: Sendable, Equatable {
    public var user: User
    public var passwordHash: String?

    public init(user: User, passwordHash: String?) {
        self.user = user
        self.passwordHash = passwordHash
    }
}

/// The sort order of a user search (`sort=field:1|-1`).
public struct UserSort: Sendable, Equatable {
    public enum Field: String, Sendable, CaseIterable {
        case email, name, nickname
        case userID = "user_id"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
        case lastLogin = "last_login"
        case loginsCount = "logins_count"
    }
    public var field: Field
    public var ascending: Bool
    public init(field: Field, ascending: Bool) {
        self.field = field
        self.ascending = ascending
    }
}

/// A filter over the event log: every listed field must match one of its values.
public struct LogFilter: Sendable, Equatable {
    /// The searchable fields of a log record.
    public static let fields: Set<String> = [
        "type", "client_id", "user_id", "user_name", "ip", "audience", "client_name",
    ]
    public var terms: [String: [String]]
    public init(terms: [String: [String]] = [:]) { self.terms = terms }
}

/// What consuming a single-use artefact found (SPEC: of N concurrent redemptions exactly one wins).
public enum ConsumeResult: Sendable, Equatable {
    /// This call consumed it; here is what was stored with it.
    case consumed(payload: String)
    /// It was consumed before: a replay. The payload lets the caller revoke what the first use issued.
    case alreadyConsumed(payload: String)
    /// It expired before anyone consumed it.
    case expired
    /// Never issued.
    case notFound
}

/// The answer of ``LoginThrottleStore/reserveLoginAttempt(userID:at:windowStart:limit:)`` (SPEC §11).
public enum LoginAttemptReservation: Sendable, Equatable {
    /// The password may be checked; should it be wrong, this is the `ordinal`-th failure in the window.
    case reserved(ordinal: Int)
    /// Refused without a check: a lock is in force, or the window is full of failures and reservations.
    case locked
}
