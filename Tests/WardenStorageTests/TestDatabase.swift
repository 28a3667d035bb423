import Foundation
import Logging
import Testing
import WardenCore
import WardenWire

@testable import WardenStorage

/// A database the conformance suite runs against: a temporary SQLite file, `sqlite::memory:`, and PostgreSQL
/// when `WARDEN_TEST_POSTGRES_URL` is set (a shared database: tests use unique ids and never assume it empty).
enum TestDatabase: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqliteFile
    case sqliteMemory
    case postgres

    static let postgresURL = ProcessInfo.processInfo.environment["WARDEN_TEST_POSTGRES_URL"].flatMap {
        $0.isEmpty ? nil : $0
    }

    /// Why the PostgreSQL cases are missing, shown on the tests that are skipped without it.
    static let postgresSkipReason: Comment =
        "WARDEN_TEST_POSTGRES_URL is not set: the conformance suite ran on SQLite only"

    /// The engines to run against: both SQLite flavours, and PostgreSQL when configured.
    static let available: [TestDatabase] = allCases.filter { $0 != .postgres || postgresURL != nil }

    var testDescription: String {
        switch self {
        case .sqliteFile: "SQLite file"
        case .sqliteMemory: "SQLite :memory:"
        case .postgres: "PostgreSQL"
        }
    }

    /// Whether each store gets a database of its own (exact totals can be checked).
    var isIsolated: Bool { self != .postgres }

    /// Opens and migrates a store, runs `body`, and shuts the store down (removing a temporary file).
    func withStore<T>(_ body: (SQLStore) async throws -> T) async throws -> T {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("warden-test-\(UUID()).sqlite").path
        let url =
            switch self {
            case .sqliteFile: "sqlite:\(file)"
            case .sqliteMemory: "sqlite::memory:"
            case .postgres: Self.postgresURL ?? ""
            }
        defer {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: file + suffix) }
        }
        return try await Self.withStore(url: url, body)
    }

    /// Runs `body` with the nodes of a race: one store on SQLite, two stores on one PostgreSQL database (two
    /// nodes, each with its own pool).
    func withNodes(_ body: ([SQLStore]) async throws -> Void) async throws {
        try await withStore { first in
            guard self == .postgres, let url = Self.postgresURL else { return try await body([first]) }
            try await Self.withStore(url: url) { second in try await body([first, second]) }
        }
    }

    /// Opens and migrates the store at `url`, runs `body`, and shuts the store down whatever happens.
    ///
    /// A failure escapes as ``DescribedFailure``: PostgresNIO's errors describe themselves generically, so the
    /// test log would otherwise not say what the server answered.
    static func withStore<T>(url: String, _ body: (SQLStore) async throws -> T) async throws -> T {
        let store: SQLStore
        do {
            store = try await SQLStore.connect(url: url, logger: quietLogger)
        } catch {
            throw DescribedFailure(stage: "connect", error: error)
        }
        do {
            try await store.migrate()
        } catch {
            try? await store.shutdown()
            throw DescribedFailure(stage: "migrate", error: error)
        }
        do {
            let result = try await body(store)
            try await store.shutdown()
            return result
        } catch {
            try? await store.shutdown()
            throw error is DescribedFailure ? error : DescribedFailure(stage: "test body", error: error)
        }
    }
}

/// An error from a store under test with its full reflection (what PostgreSQL said), and where it happened.
struct DescribedFailure: Error, CustomStringConvertible {
    let description: String

    init(stage: String, error: any Error) {
        description = "\(stage): \(String(reflecting: error))"
    }
}

/// An id no other test run uses: `prefix_<uuid>`.
func uniqueID(_ prefix: String) -> String {
    "\(prefix)_\(UUID().uuidString.lowercased())"
}

/// A time with millisecond precision (what the store keeps), `offset` seconds from now.
func storedTime(_ offset: TimeInterval = 0) -> Date {
    Date(millisecondsSince1970: Date().addingTimeInterval(offset).millisecondsSince1970)
}

/// A logger for stores under test: warnings and errors only.
let quietLogger: Logger = {
    var logger = Logger(label: "warden.storage.tests")
    logger.logLevel = .warning
    return logger
}()
