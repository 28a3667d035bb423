import Foundation
import Logging
import NIOCore
import NIOPosix
import SQLKit
import SQLiteNIO
import Testing

@testable import WardenStorage

/// The SQLite writer runs SQLKit's statements on a thread of its own, a whole session there at once, and keeps
/// their prepared form (issue 16 item 7).
@Suite("SQLite writer on its own thread")
struct SQLiteWriterTests {
    /// Runs `body` with a writer on a fresh in-memory database, closed afterwards.
    private func withWriter(_ body: (SQLiteWriter) async throws -> Void) async throws {
        let writer = try await SQLiteWriter.open(path: ":memory:", logger: Logger(label: "test"))
        do {
            try await body(writer)
        } catch {
            await writer.close()
            throw error
        }
        await writer.close()
    }

    @Test("A session runs on the writer's thread, statements included; the caller is back on its own after")
    func aSessionRunsOnTheWritersThread() async throws {
        try await withWriter { writer in
            #expect(!writer.executor.isCurrent)
            let onThread = try await writer.withSession { session in
                try await session.raw("CREATE TABLE t (v INTEGER)").run()
                let first = writer.executor.isCurrent
                try await session.raw("INSERT INTO t VALUES (1)").run()
                return first && writer.executor.isCurrent
            }
            #expect(onThread)
            #expect(!writer.executor.isCurrent)
            let count = try await writer.raw("SELECT COUNT(*) AS n FROM t").first(decodingColumn: "n", as: Int.self)
            #expect(count == 1)
        }
    }

    @Test("Values come back as they were bound, by SQLiteKit's rules")
    func valuesRoundTrip() async throws {
        struct Document: Codable, Equatable, Sendable {
            let name: String
            let tags: [String]
        }
        try await withWriter { writer in
            try await writer.raw("CREATE TABLE v (i INTEGER, d REAL, t TEXT, b BLOB, n TEXT, j TEXT)").run()
            let text = "Grüße, 世界 — \u{1F511}"
            let blob = Data([0, 1, 2, 255, 0])
            let document = Document(name: "n", tags: ["a", "b"])
            try await writer.insert(into: "v").columns("i", "d", "t", "b", "n", "j")
                .values(
                    SQLBind(Int.max), SQLBind(2.5), SQLBind(text), SQLBind(blob),
                    SQLBind(String?.none), SQLBind(document)
                )
                .run()
            let row = try #require(try await writer.select().columns("*").from("v").first())
            #expect(row.allColumns == ["i", "d", "t", "b", "n", "j"])
            #expect(try row.decode(column: "i", as: Int.self) == Int.max)
            #expect(try row.decode(column: "d", as: Double.self) == 2.5)
            #expect(try row.decode(column: "t", as: String.self) == text)
            #expect(try row.decode(column: "b", as: Data.self) == blob)
            #expect(try row.decodeNil(column: "n"))
            #expect(try !row.decodeNil(column: "t"))
            #expect(try row.decode(column: "j", as: Document.self) == document)
            #expect(try row.decode(column: "n", as: String?.self) == nil)
            #expect(!row.contains(column: "missing"))
            #expect(throws: SQLiteWriterRow.MissingColumn.self) { try row.decode(column: "missing", as: Int.self) }
        }
    }

    @Test("More distinct statements than the cache keeps all run, and the ones seen before run again")
    func theStatementCacheIsBounded() async throws {
        try await withWriter { writer in
            // Beyond the binds a kept statement may have: prepared for each use, the same answer each time.
            let many = SQLiteWriterConnection.cachedBindLimit + 1
            for _ in 0..<2 {
                let values: [any Encodable & Sendable] = Array(repeating: 1, count: many)
                let count = try await writer.raw("SELECT json_array_length(json_array(\(binds: values))) AS v")
                    .first(decodingColumn: "v", as: Int.self)
                #expect(count == many)
            }
            let count = SQLiteWriterConnection.cachedStatementLimit + 44
            for round in 0..<2 {
                for value in 0..<count {
                    let got = try await writer.raw("SELECT \(unsafeRaw: String(value)) + \(bind: round) AS v")
                        .first(decodingColumn: "v", as: Int.self)
                    #expect(got == value + round)
                }
            }
        }
    }

    @Test("A failed statement leaves the connection usable; a duplicate key is recognized as one")
    func aFailureLeavesTheConnectionUsable() async throws {
        try await withWriter { writer in
            try await writer.raw("CREATE TABLE k (id TEXT PRIMARY KEY, e TEXT UNIQUE)").run()
            try await writer.raw("INSERT INTO k VALUES (\(bind: "a"), \(bind: "x"))").run()
            let duplicates: [SQLQueryString] = [
                "INSERT INTO k VALUES (\(bind: "a"), \(bind: "y"))",
                "INSERT INTO k VALUES (\(bind: "b"), \(bind: "x"))",
            ]
            for statement in duplicates {
                let error = await #expect(throws: SQLiteFailure.self) { try await writer.raw(statement).run() }
                #expect(error?.isUniqueViolation == true)
                #expect(error.map(UniqueViolation.matches) == true)
            }
            await #expect(throws: SQLiteFailure.self) { try await writer.raw("SELECT * FROM nowhere").run() }
            // The same cached statement again, after its failure: no bindings of the last run are left over.
            try await writer.withSession { session in
                try await session.raw("BEGIN IMMEDIATE").run()
                try await session.raw("INSERT INTO k VALUES (\(bind: "b"), \(bind: "y"))").run()
                try await session.raw("ROLLBACK").run()
            }
            let rows = try await writer.raw("SELECT id FROM k ORDER BY id").all(decodingColumn: "id", as: String.self)
            #expect(rows == ["a"])
        }
    }
}
