import Foundation
import SQLKit
import Synchronization
import Testing
import WardenCore

@testable import WardenStorage

/// Issue 16 item 6: every statement's time, by kind and first table, reaches the store's ``StatementObserver`` —
/// single statements, reads, and those of transactions.
@Suite("Statement timing")
struct StatementTimingTests {
    final class Recorder: StatementObserver {
        let seen = Mutex<[String]>([])
        func statement(_ statement: String, table: String, took duration: Duration) {
            #expect(duration >= .zero)
            seen.withLock { $0.append(statement + " " + table) }
        }
    }

    @Test("kinds and tables of SQLKit's queries")
    func describe() {
        #expect(TimedSQLDatabase.describe(SQLSelect()) == ("select", ""))
        var select = SQLSelect()
        select.tables = [SQLIdentifier("users")]
        #expect(TimedSQLDatabase.describe(select) == ("select", "users"))
        #expect(TimedSQLDatabase.describe(SQLInsert(table: SQLIdentifier("logs"))) == ("insert", "logs"))
        #expect(
            TimedSQLDatabase.describe(SQLUpdate(table: SQLQualifiedTable("sessions", space: "public"))).table
                == "sessions")
        #expect(TimedSQLDatabase.describe(SQLDelete(table: SQLIdentifier("artefacts"))) == ("delete", "artefacts"))
        #expect(TimedSQLDatabase.describe(SQLRaw("SELECT 1")) == ("sql", ""))
    }

    @Test("the store reports its statements once observed", arguments: TestDatabase.available)
    func observed(database: TestDatabase) async throws {
        try await database.withStore { store in
            let recorder = Recorder()
            _ = try await store.enabledMFAFactors()
            #expect(recorder.seen.withLock { $0 }.isEmpty)
            store.observeStatements(recorder)
            _ = try await store.enabledMFAFactors()
            try await store.setMFAPolicies([])
            let seen = recorder.seen.withLock { $0 }
            #expect(seen.contains("select mfa_factors"))
            #expect(seen.contains("delete mfa_policies"), "a statement of a transaction")
            #expect(seen.contains("sql "), "BEGIN and COMMIT")
        }
    }
}
