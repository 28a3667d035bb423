import PostgresKit

import struct Foundation.URLComponents

/// Where a ``SQLStore`` keeps its data, parsed from `--database` / `WARDEN_DATABASE_URL` (SPEC §1).
enum DatabaseURL {
    /// `sqlite::memory:`: one in-memory database, alive as long as the store.
    case sqliteMemory
    /// `sqlite:PATH` (also `sqlite://PATH`): a database file, created when missing.
    case sqliteFile(path: String)
    /// `postgres://user:password@host:port/database` (also `postgresql://`).
    case postgres(SQLPostgresConfiguration)

    static let accepted =
        "use sqlite:PATH, sqlite::memory: or postgres://user:password@host:port/database"
        + " (optional query: tlsmode=disable|prefer|require, search_path=schema)"

    /// How errors name the database: the URL without its password.
    static func redacted(_ url: String) -> String {
        guard var components = URLComponents(string: url), components.password != nil else { return url }
        components.password = nil
        return components.string ?? url
    }

    init(_ url: String) throws(DatabaseURLError) {
        guard let colon = url.firstIndex(of: ":") else {
            throw DatabaseURLError("Database URL '\(url)' has no scheme; \(Self.accepted)")
        }
        let scheme = url[..<colon].lowercased()
        switch scheme {
        case "sqlite":
            self = try Self.sqlite(location: String(url[url.index(after: colon)...]))
        case "postgres", "postgresql", "postgres+tcp", "postgresql+tcp", "postgres+uds", "postgresql+uds":
            self = .postgres(try Self.postgres(url))
        default:
            throw DatabaseURLError("Unsupported database URL scheme '\(scheme)'; \(Self.accepted)")
        }
    }

    private static func sqlite(location: String) throws(DatabaseURLError) -> DatabaseURL {
        if location == ":memory:" { return .sqliteMemory }
        let path = location.hasPrefix("//") ? String(location.dropFirst(2)) : location
        guard !path.isEmpty else {
            throw DatabaseURLError("The SQLite URL names no file; \(accepted)")
        }
        return .sqliteFile(path: path)
    }

    /// The URL is not repeated in errors: it may hold a password.
    private static func postgres(_ url: String) throws(DatabaseURLError) -> SQLPostgresConfiguration {
        var configuration: SQLPostgresConfiguration
        do {
            configuration = try SQLPostgresConfiguration(url: url)
        } catch {
            throw DatabaseURLError(
                "Invalid PostgreSQL URL: expected postgres://user:password@host:port/database"
                    + " (a user and a host are required; tlsmode is disable, prefer or require)")
        }
        let searchPath = URLComponents(string: url)?.queryItems?.last { $0.name == "search_path" }?.value
        if let searchPath, !searchPath.isEmpty {
            configuration.searchPath = searchPath.split(separator: ",").map(String.init)
        }
        return configuration
    }
}

/// A database URL that ``SQLStore/connect(url:logger:maxConnections:)`` cannot use; the message says which
/// forms are accepted (and never repeats a password).
public struct DatabaseURLError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String

    init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}

/// The database a valid URL names could not be opened or reached by
/// ``SQLStore/connect(url:logger:maxConnections:)``; the message names it (without the password) and says why.
public struct DatabaseUnreachableError: Error, Sendable, CustomStringConvertible {
    public let message: String

    init(url: String, underlying: any Error) {
        message = "Cannot open the database \(DatabaseURL.redacted(url)): \(String(reflecting: underlying))"
    }

    public var description: String { message }
}
