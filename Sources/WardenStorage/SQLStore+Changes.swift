import Logging
import SQLKit
public import WardenCore

/// ``ChangeChannel`` over PostgreSQL `NOTIFY warden_changes` / `LISTEN warden_changes` (SQLKit has no
/// LISTEN, so the listening side uses PostgresNIO directly); a no-op on SQLite.
extension SQLStore {
    static let changeChannel = "warden_changes"

    public func announce(_ announcement: ChangeAnnouncement) async {
        guard engine == .postgres else { return }
        do {
            try await sql.raw("SELECT pg_notify(\(bind: Self.changeChannel), \(bind: announcement.payload))").run()
        } catch {
            logger.warning(
                "could not announce a change", metadata: ["change": "\(announcement.payload)", "error": "\(error)"])
        }
    }

    public func listen(_ handler: @escaping @Sendable (ChangeAnnouncement) async -> Void) async throws {
        try await backend.listen(
            channel: Self.changeChannel,
            reconnected: { await handler(.reconnected) },
            { payload in
                if let announcement = ChangeAnnouncement(payload: payload) { await handler(announcement) }
            })
    }
}
