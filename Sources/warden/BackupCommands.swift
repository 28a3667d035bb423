import ArgumentParser
import Foundation
import Logging
import WardenStorage

/// `warden backup FILE` (issue 33): a consistent copy of a SQLite database, while a server runs on it.
struct Backup: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Copy a SQLite database to FILE, consistently, even while Warden serves from it.",
        discussion: """
            One snapshot of the database is written to the new FILE (SQLite's VACUUM INTO): every write a server \
            acknowledged before the backup began is in it, and writers go on meanwhile. Keep WARDEN_DATA_KEY with \
            it: sealed upstream tokens and invitation links need that key. For PostgreSQL use pg_dump (README, \
            "Backups").
            """)
    @Argument(help: "The new file to write (it must not exist).") var file: String
    @OptionGroup var options: StoreOptions

    func run() async throws {
        let url = try options.databaseURL(Settings())
        if url.hasPrefix("sqlite:"), url != "sqlite::memory:",
            !FileManager.default.fileExists(atPath: String(url.dropFirst("sqlite:".count)))
        {
            throw ConfigurationError("no database at \(url.dropFirst("sqlite:".count)): nothing to back up")
        }
        let store = try await BackupStore.open(options)
        let started = Date()
        do {
            guard try await store.schemaVersion() != nil else {
                throw BackupError("\(url) is not a Warden database: nothing to back up")
            }
            try await store.backup(to: file)
        } catch let error as BackupError {
            try? await store.shutdown()
            throw ConfigurationError(error.message)
        }
        try await store.shutdown()
        let size = (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? 0
        Terminal.stderr(
            "Backed up to \(file) (\(size / 1024) KiB in \(String(format: "%.1f", Date().timeIntervalSince(started))) s)."
                + " Restore it with: warden restore \(file) --database sqlite:NEW_PATH")
    }
}

/// `warden restore FILE` (issue 33): a backup into a new SQLite database.
struct Restore: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Restore a backup made by `warden backup` into a new SQLite database (--database sqlite:PATH).",
        discussion: """
            The target must not exist (or be empty); the backup must be a Warden database that passes SQLite's \
            integrity check and that this release knows. Start Warden on the target afterwards: it applies the \
            migrations the backup lacks.
            """)
    @Argument(help: "The backup file.") var file: String
    @OptionGroup var options: StoreOptions

    func run() async throws {
        let settings = Settings()
        let target = try options.databaseURL(settings)
        guard target.hasPrefix("sqlite:"), target != "sqlite::memory:" else {
            throw ConfigurationError(
                "restore writes a SQLite file: give --database sqlite:PATH (pg_restore for PostgreSQL)")
        }
        guard FileManager.default.fileExists(atPath: file) else { throw ConfigurationError("no backup at \(file)") }
        var source = options
        source.database = "sqlite:" + file
        let store = try await BackupStore.open(source)
        let path = String(target.dropFirst("sqlite:".count))
        do {
            try await store.restore(to: path)
        } catch let error as BackupError {
            try? await store.shutdown()
            throw ConfigurationError(error.message)
        } catch let error as SchemaTooNewError {
            try? await store.shutdown()
            throw ConfigurationError(error.description)
        }
        try await store.shutdown()
        Terminal.stderr("Restored \(file) into \(path). Start Warden with --database sqlite:\(path).")
    }
}

/// Opening a database for `backup` and `restore`: no migration, and the same one-line errors as `serve`.
enum BackupStore {
    static func open(_ options: StoreOptions) async throws -> SQLStore {
        let settings = Settings()
        let logger = WardenLogging.bootstrap(label: "warden", settings: try options.logging(settings))
        do {
            return try await SQLStore.connect(url: try options.databaseURL(settings), logger: logger)
        } catch let error as DatabaseURLError {
            throw ConfigurationError(error.message)
        } catch let error as DatabaseUnreachableError {
            throw ConfigurationError(error.message)
        }
    }
}
