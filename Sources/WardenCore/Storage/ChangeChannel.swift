/// What one node tells the others (ARCHITECTURE: caches are refreshed on change; SPEC §6.2: decisions reach
/// the node that needs them).
public enum ChangeAnnouncement: Sendable, Hashable {
    /// Signing keys changed (rotation, revocation, a new algorithm).
    case keys
    /// Clients, APIs or client grants changed.
    case tenant
    /// A CIBA request was approved or denied; the value is its ``BackchannelRequest/id``.
    case backchannelDecided(requestID: BackchannelRequest.ID)
    /// A device enrolled for the `STREAM` service has a new transaction; the value is its
    /// ``DeviceEnrollment/id`` (SPEC §7.5: the node holding its WebSocket sends it).
    case deviceTransactions(enrollmentID: String)
    /// Delivered to a listener after each (re)connection: announcements may have been missed meanwhile.
    case reconnected

    static let backchannelPrefix = "ciba:"
    static let devicePrefix = "device:"

    /// The wire form (a PostgreSQL `NOTIFY` payload).
    public var payload: String {
        switch self {
        case .keys: "keys"
        case .tenant: "tenant"
        case .backchannelDecided(let id): Self.backchannelPrefix + id.hex
        case .deviceTransactions(let id): Self.devicePrefix + id
        case .reconnected: "reconnected"
        }
    }

    /// Parses ``payload``; `nil` for anything else.
    public init?(payload: String) {
        switch payload {
        case "keys": self = .keys
        case "tenant": self = .tenant
        case "reconnected": self = .reconnected
        default:
            if let hex = Self.value(of: payload, after: Self.backchannelPrefix) {
                guard let id = BackchannelRequest.ID(hex: hex) else { return nil }
                self = .backchannelDecided(requestID: id)
            } else if let id = Self.value(of: payload, after: Self.devicePrefix) {
                self = .deviceTransactions(enrollmentID: id)
            } else {
                return nil
            }
        }
    }

    /// What follows `prefix` in `payload`; `nil` when `payload` does not start with it or nothing follows.
    private static func value(of payload: String, after prefix: String) -> String? {
        guard payload.hasPrefix(prefix), payload.count > prefix.count else { return nil }
        return String(payload.dropFirst(prefix.count))
    }
}

/// The cross-node notification channel: PostgreSQL `LISTEN`/`NOTIFY`; on SQLite, where nodes share a file
/// on one host, announcements go nowhere and each node's periodic refresh (≤ 60 s) does the work.
public protocol ChangeChannel: Sendable {
    /// Tells every node (this one included, on PostgreSQL) what happened. Never throws: a lost announcement
    /// is covered by the periodic refresh.
    func announce(_ announcement: ChangeAnnouncement) async
    /// Calls `handler` for each announcement until the task is cancelled, and with
    /// ``ChangeAnnouncement/reconnected`` after every (re)connection.
    func listen(_ handler: @escaping @Sendable (ChangeAnnouncement) async -> Void) async throws
}
