import Foundation
import Logging
import PostgresKit
import SQLKit
import Synchronization
import Testing
import WardenCore
import WardenWire

@testable import WardenStorage

@Suite("Connecting and migrating")
struct ConnectionTests {
    @Test(
        "A URL the store cannot use is rejected with a helpful message",
        arguments: ["mysql://u:pw@localhost/db", "warden.sqlite", "sqlite:", "postgres://:s3cret@/db"])
    func rejectsBadURLs(url: String) async throws {
        let error = await #expect(throws: DatabaseURLError.self) {
            _ = try await SQLStore.connect(url: url, logger: quietLogger)
        }
        #expect(error?.message.contains("sqlite:PATH") == true || error?.message.contains("postgres://") == true)
        #expect(error?.message.contains("s3cret") == false)
    }

    @Test("Accepted URL forms")
    func parsesURLs() throws {
        guard case .sqliteMemory = try DatabaseURL("sqlite::memory:") else { Issue.record("memory"); return }
        guard case .sqliteFile(let relative) = try DatabaseURL("sqlite:warden.sqlite"), relative == "warden.sqlite"
        else { Issue.record("relative file"); return }
        guard case .sqliteFile(let absolute) = try DatabaseURL("sqlite:///var/lib/warden.sqlite"),
            absolute == "/var/lib/warden.sqlite"
        else { Issue.record("absolute file"); return }
        guard
            case .postgres(let configuration) = try DatabaseURL(
                "postgresql://warden:pw@db.internal:6543/warden?tlsmode=disable&search_path=auth,public")
        else { Issue.record("postgres"); return }
        #expect(configuration.searchPath == ["auth", "public"])
        #expect(configuration.coreConfiguration.username == "warden")
        #expect(configuration.coreConfiguration.database == "warden")
    }

    @Test("An unreachable PostgreSQL server fails connect() and leaves nothing open")
    func unreachablePostgres() async throws {
        let error = await #expect(throws: DatabaseUnreachableError.self) {
            _ = try await SQLStore.connect(
                url: "postgres://warden:pw@127.0.0.1:1/warden?tlsmode=disable", logger: quietLogger)
        }
        #expect(error?.message.contains("postgres://warden@127.0.0.1:1/warden") == true)
        #expect(error?.message.contains("Connection refused") == true)
        #expect(error?.message.contains(":pw@") == false)
    }

    @Test("ping answers and migrate() twice is a no-op", arguments: TestDatabase.available)
    func migrateTwice(database: TestDatabase) async throws {
        try await database.withStore { store in
            try await store.ping()
            #expect(try await store.migrate() == [])
            #expect(try await store.migrate() == [])
            let versions = try await store.sql.select().column("version").from("schema_migrations")
                .orderBy("version").all(decodingColumn: "version", as: Int.self)
            #expect(versions == Migration.all.map(\.version))
        }
    }

    @Test("The first migrate() applies every migration in order")
    func firstMigration() async throws {
        let store = try await SQLStore.connect(url: "sqlite::memory:", logger: quietLogger)
        let applied = try await store.migrate()
        try await store.shutdown()
        #expect(applied == Migration.all.map(\.version))
    }

    @Test("Two stores migrating one new SQLite file at once apply each migration once")
    func concurrentSQLiteMigrations() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("warden-mig-\(UUID()).sqlite").path
        defer {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        }
        try await Self.expectOneMigrator(url: "sqlite:\(path)")
    }

    @Test(
        "Two nodes migrating one new PostgreSQL schema at once apply each migration once",
        .enabled(if: TestDatabase.postgresURL != nil, TestDatabase.postgresSkipReason))
    func concurrentPostgresMigrations() async throws {
        let baseURL = try #require(TestDatabase.postgresURL)
        let schema = "warden_test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        try await TestDatabase.withStore(url: baseURL) { admin in
            try await admin.sql.raw("CREATE SCHEMA \(ident: schema)").run()
            do {
                let separator = baseURL.contains("?") ? "&" : "?"
                try await Self.expectOneMigrator(url: baseURL + separator + "search_path=" + schema)
            } catch {
                try await admin.sql.raw("DROP SCHEMA \(ident: schema) CASCADE").run()
                throw error
            }
            try await admin.sql.raw("DROP SCHEMA \(ident: schema) CASCADE").run()
        }
    }

    /// Connects two stores to `url` (an empty database) and migrates both at once.
    @Test("A commit by another process on the same SQLite file is noticed; this store's own writes are not")
    func sqliteNoticesOtherWriters() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("warden-dv-\(UUID()).sqlite").path
        defer {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        }
        let listener = try await SQLStore.connect(url: "sqlite:\(path)", logger: quietLogger)
        let writer = try await SQLStore.connect(url: "sqlite:\(path)", logger: quietLogger)
        try await listener.migrate()
        let heard = Mutex<[ChangeAnnouncement]>([])
        let listening = Task {
            try await listener.listen { announcement in heard.withLock { $0.append(announcement) } }
        }
        // Let the listener read its first data_version, then write through the listener itself.
        try await Task.sleep(for: .milliseconds(1500))
        try await listener.putArtefact(
            kind: "test", hash: uniqueID("own"), payload: "", expiresAt: Date().addingTimeInterval(60))
        try await Task.sleep(for: .milliseconds(1500))
        #expect(heard.withLock { $0 }.isEmpty)
        try await writer.putArtefact(
            kind: "test", hash: uniqueID("other"), payload: "", expiresAt: Date().addingTimeInterval(60))
        for _ in 0..<40 where heard.withLock({ $0.isEmpty }) { try await Task.sleep(for: .milliseconds(100)) }
        #expect(heard.withLock { $0 } == [.reconnected])
        listening.cancel()
        _ = await listening.result
        try await listener.shutdown()
        try await writer.shutdown()
    }

    private static func expectOneMigrator(url: String) async throws {
        let first = try await SQLStore.connect(url: url, logger: quietLogger)
        let second = try await SQLStore.connect(url: url, logger: quietLogger)
        let outcome: Result<[[Int]], any Error>
        do {
            async let firstApplied = first.migrate()
            async let secondApplied = second.migrate()
            outcome = .success(try await [firstApplied, secondApplied])
        } catch {
            outcome = .failure(error)
        }
        try await first.shutdown()
        try await second.shutdown()
        let results = try outcome.get()
        #expect(results.sorted { $0.count < $1.count } == [[], Migration.all.map(\.version)])
    }
}
