import Foundation
import SQLKit
import WardenCore

/// Backups of a SQLite database (issue 33; `warden backup`, `warden restore`). PostgreSQL has its own tools
/// (`pg_dump`, `pg_restore`; the README says what else to keep: the data key).
extension SQLStore {
    /// Writes a consistent copy of this SQLite database to the new file `path`, even while a server writes to it:
    /// `VACUUM INTO` reads one snapshot of the database (in WAL mode writers go on meanwhile) and writes it as a
    /// compact database. Every write acknowledged before it began is in the copy.
    public func backup(to path: String) async throws {
        guard engine == .sqlite else { throw BackupError("backups of PostgreSQL are made with pg_dump (see README)") }
        guard !FileManager.default.fileExists(atPath: path) else {
            throw BackupError("\(path) exists: a backup is written to a new file")
        }
        try await sql.raw("VACUUM INTO \(bind: path)").run()
    }

    /// The highest migration applied to this database; `nil` when it has none (not a Warden database).
    public func schemaVersion() async throws -> Int? {
        guard
            try await sql.raw(
                engine == .sqlite
                    ? "SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'"
                    : "SELECT tablename FROM pg_tables WHERE tablename = 'schema_migrations'"
            ).first() != nil
        else { return nil }
        return try await sql.raw("SELECT MAX(version) AS version FROM schema_migrations").first()?
            .decode(column: "version", as: Int?.self)
    }

    /// Copies the backup this store opened into the new SQLite database file `path` (`warden restore`): only a Warden
    /// database that passes SQLite's integrity check and whose schema this build knows. The copy is migrated by the
    /// next `warden serve` or `warden migrate` like any database.
    public func restore(to path: String) async throws {
        guard engine == .sqlite else { throw BackupError("restores of PostgreSQL are made with pg_restore") }
        guard let version = try await schemaVersion() else {
            throw BackupError("the file is not a Warden database (it has no schema_migrations table)")
        }
        guard version <= Migration.latestVersion else { throw SchemaTooNewError(database: version) }
        let check = try await sql.raw("PRAGMA integrity_check").all().compactMap {
            try? $0.decode(column: "integrity_check", as: String.self)
        }
        guard check == ["ok"] else {
            throw BackupError("the file fails SQLite's integrity check: \(check.prefix(3).joined(separator: "; "))")
        }
        let target = URL(fileURLWithPath: path)
        if let size = try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int, size > 0 {
            throw BackupError("\(path) exists and is not empty: restore writes a new database")
        }
        try? FileManager.default.removeItem(at: target)
        try await sql.raw("VACUUM INTO \(bind: path)").run()
    }
}

/// Why a backup or restore could not be made; the message says what to do.
public struct BackupError: Error, Sendable, CustomStringConvertible {
    public let message: String
    public var description: String { message }
    public init(_ message: String) { self.message = message }
}

/// A database migrated by a newer Warden than this one (issue 33): this build refuses to start on it rather than
/// run beside a schema it does not know.
public struct SchemaTooNewError: Error, Sendable, CustomStringConvertible {
    public let database: Int
    public var description: String {
        "The database's schema is at version \(database), newer than this Warden knows (\(Migration.latestVersion)): "
            + "run the Warden release that migrated it, or restore a backup made before the upgrade."
    }
}
