import NIOCore
import NIOPosix
import PostgresKit

import struct Foundation.URLComponents

#if canImport(Glibc)
    import Glibc
#endif

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

    /// The URL is not repeated in errors: it may hold a password. Parsed here rather than by
    /// `SQLPostgresConfiguration(url:)`, which hands a bracketed IPv6 host (`[::1]`, RFC 3986 §3.2.2) to the
    /// resolver with its brackets.
    private static func postgres(_ url: String) throws(DatabaseURLError) -> SQLPostgresConfiguration {
        let expected =
            "Invalid PostgreSQL URL: expected postgres://user:password@host:port/database"
            + " (a user and a host are required; tlsmode is disable, prefer or require)"
        guard let components = URLComponents(string: url), let user = components.user, !user.isEmpty,
            var host = components.host, !host.isEmpty
        else { throw DatabaseURLError(expected) }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        let query = components.queryItems ?? []
        let tls: PostgresConnection.Configuration.TLS
        do {
            switch query.last(where: { ["tlsmode", "sslmode", "ssl", "tls"].contains($0.name.lowercased()) })?.value {
            case "verify-full", "verify-ca", "require":
                tls = try .require(.init(configuration: .makeClientConfiguration()))
            case nil, "prefer", "allow", "true": tls = try .prefer(.init(configuration: .makeClientConfiguration()))
            case "disable", "false": tls = .disable
            default: throw DatabaseURLError(expected)
            }
        } catch {
            throw DatabaseURLError(expected)
        }
        let database = components.path.drop { $0 == "/" }
        var configuration = SQLPostgresConfiguration(
            hostname: host, port: components.port ?? SQLPostgresConfiguration.ianaPortNumber,
            username: user,
            password: components.password,
            database: database.isEmpty ? nil : String(database), tls: tls)
        let searchPath = query.last { $0.name == "search_path" }?.value
        if let searchPath, !searchPath.isEmpty {
            configuration.searchPath = searchPath.split(separator: ",").map(String.init)
        }
        return configuration
    }

    /// `host:port` of a PostgreSQL URL (an IPv6 host in brackets), for messages.
    static func endpoint(of url: String) -> String? {
        guard let components = URLComponents(string: url), let host = components.host, !host.isEmpty else {
            return nil
        }
        let bracketed = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        return "\(bracketed):\(components.port ?? SQLPostgresConfiguration.ianaPortNumber)"
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
/// ``SQLStore/connect(url:logger:maxConnections:)``; the message names it (without the password) and says why in
/// words: for PostgreSQL the host and port that could not be reached and the system's reason
/// ("Connection refused"), not the driver's error dump.
public struct DatabaseUnreachableError: Error, Sendable, CustomStringConvertible {
    public let message: String

    init(url: String, underlying: any Error) {
        let location = DatabaseURL.redacted(url)
        if case .postgres = try? DatabaseURL(url), let endpoint = DatabaseURL.endpoint(of: url) {
            message =
                "Cannot reach PostgreSQL at \(endpoint) (\(location)): \(Self.reason(underlying)). "
                + "Is the server running there, and does --database / WARDEN_DATABASE_URL name it?"
        } else {
            message = "Cannot open the database \(location): \(Self.reason(underlying))"
        }
    }

    /// The innermost readable cause: PostgresNIO wraps socket errors in a `PSQLError` whose description is
    /// a dump of its internals.
    static func reason(_ error: any Error) -> String {
        if let error = error as? PSQLError {
            if let underlying = error.underlying { return reason(underlying) }
            if let server = error.serverInfo?[.message] { return server }
            return "\(error.code)"
        }
        if let error = error as? NIOConnectionError {
            if let failure = error.connectionErrors.first { return reason(failure.error) }
            if let resolution = error.dnsAAAAError ?? error.dnsAError {
                return "cannot resolve the host (\(resolution))"
            }
            return "connection failed"
        }
        if let error = error as? IOError {
            return String(cString: strerror(error.errnoCode))
        }
        return String(describing: error)
    }

    public var description: String { message }
}
