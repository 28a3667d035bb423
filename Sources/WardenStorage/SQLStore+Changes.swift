import Logging
import SQLKit
public import WardenCore

/// ``ChangeChannel`` over PostgreSQL `NOTIFY warden_changes` / `LISTEN warden_changes` (SQLKit has no
/// LISTEN, so the listening side uses PostgresNIO directly); a no-op on SQLite.
extension SQLStore {
    static let changeChannel = "warden_changes"

    public func announce(_ change: CacheChange) async {
        guard engine == .postgres else { return }
        do {
            try await sql.raw("SELECT pg_notify(\(bind: Self.changeChannel), \(bind: change.rawValue))").run()
        } catch {
            logger.warning(
                "could not announce a change", metadata: ["change": "\(change.rawValue)", "error": "\(error)"])
        }
    }

    public func listen(_ handler: @escaping @Sendable (CacheChange) async -> Void) async throws {
        try await backend.listen(
            channel: Self.changeChannel,
            reconnected: {
                for change in CacheChange.allCases { await handler(change) }
            },
            { payload in
                if let change = CacheChange(rawValue: payload) { await handler(change) }
            })
    }
}
