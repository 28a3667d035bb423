import Foundation
import SQLKit
import Testing
import WardenCore
import WardenWire

@testable import WardenStorage

/// A SQLite file has read-only connections beside its one writer (issue 16 item 2): a long read does not hold up a
/// write, a read sees every write committed before it, and a reader refuses to write. Its log is checkpointed
/// beside the writer too.
@Suite("SQLite readers beside the writer")
struct SQLiteReadersTests {
    private static func user(_ id: String) -> UserRecord {
        UserRecord(
            user: User(userID: id, email: "\(id.dropFirst(6))@example.com", createdAt: storedTime()), passwordHash: nil)
    }

    @Test("A write completes while a reader holds a read transaction open, which keeps its snapshot")
    func aLongReadDoesNotBlockAWrite() async throws {
        try await TestDatabase.sqliteFile.withStore { store in
            let id = uniqueID("auth0|reader")
            try await store.reads.withSession { reader in
                try await reader.raw("BEGIN").run()
                let before = try await reader.raw("SELECT COUNT(*) AS n FROM users").first(
                    decodingColumn: "n", as: Int.self)
                // The read transaction is open on the reader: the writer's commit must not wait for it.
                let written = try await Self.within(.seconds(10)) { try await store.insertUser(Self.user(id)) }
                #expect(written, "the write waited for the reader")
                let during = try await reader.raw("SELECT COUNT(*) AS n FROM users").first(
                    decodingColumn: "n", as: Int.self)
                #expect(during == before, "the open read transaction keeps its snapshot")
                try await reader.raw("COMMIT").run()
            }
            #expect(try await store.user(id: id)?.user.userID == id)
        }
    }

    @Test("The writer's page cache is large while an import runs, SQLite's default otherwise, also after a failure")
    func theLargePageCacheLastsAsLongAsAnImport() async throws {
        struct Failure: Error {}
        try await TestDatabase.sqliteFile.withStore { store in
            func cacheSize() async throws -> Int? {
                try await store.sql.raw("PRAGMA cache_size").first(decodingColumn: "cache_size", as: Int.self)
            }
            #expect(try await cacheSize() == -2_000)
            let during = try await store.withBulkUserWrites {
                try await store.withBulkUserWrites { try await cacheSize() }
            }
            #expect(during == -65_536)
            #expect(try await cacheSize() == -2_000, "the last import to end gives the cache back")
            await #expect(throws: Failure.self) {
                try await store.withBulkUserWrites { () async throws -> Int in throw Failure() }
            }
            #expect(try await cacheSize() == -2_000)
        }
    }

    @Test("A read on a reader sees the write committed just before it", arguments: TestDatabase.available)
    func readYourWrites(database: TestDatabase) async throws {
        try await database.withStore { store in
            for _ in 0..<50 {
                let id = uniqueID("auth0|ryw")
                try await store.insertUser(Self.user(id))
                #expect(try await store.user(id: id) != nil)
                #expect(try await store.deleteUser(id: id))
                #expect(try await store.user(id: id) == nil)
            }
        }
    }

    @Test("A reader refuses to write")
    func readersAreReadOnly() async throws {
        _ = try await TestDatabase.sqliteFile.withStore { store in
            await #expect(throws: (any Error).self) {
                try await store.reads.raw("DELETE FROM users").run()
            }
        }
    }

    @Test("The writer never checkpoints; the log reaches the file all the same, copied beside it")
    func checkpointsRunBesideTheWriter() async throws {
        try await TestDatabase.sqliteFile.withStore { store in
            let automatic = try await store.sql.raw("PRAGMA wal_autocheckpoint").first(
                decodingColumn: "wal_autocheckpoint", as: Int.self)
            #expect(automatic == 0)
            let files = try await store.sql.raw("PRAGMA database_list").all().map {
                try $0.decode(column: "file", as: String.self)
            }
            let path = try #require(files.first { !$0.isEmpty })
            let size = { (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0 }
            let before = size()
            try await store.appendLogs(
                (0..<3_000).map { LogEvent(date: storedTime(), type: .loginSuccess, userID: "auth0|log\($0)") })
            var copied = false
            for _ in 0..<100 where !copied {
                try await Task.sleep(for: .milliseconds(100))
                copied = size() > before
            }
            #expect(copied, "the events' pages never reached the database file")
        }
    }

    /// Runs `body`; `false` when it did not finish within `limit` (it is then cancelled, which it may ignore).
    private static func within(_ limit: Duration, _ body: @escaping @Sendable () async throws -> Void) async throws
        -> Bool
    {
        try await withThrowingTaskGroup(of: Bool.self) { group in
            group.addTask {
                try await body()
                return true
            }
            group.addTask {
                try await Task.sleep(for: limit)
                return false
            }
            let first = try await group.next() ?? false
            group.cancelAll()
            return first
        }
    }
}
