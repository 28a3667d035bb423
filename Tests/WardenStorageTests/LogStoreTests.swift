import Foundation
import Testing
import WardenCore
import WardenWire

@testable import WardenStorage

@Suite("LogStore: append, search, checkpoints, purge")
struct LogStoreTests {
    private static func event(user: String, type: LogEventType = .loginSuccess, date: Date = storedTime()) -> LogEvent {
        LogEvent(
            logID: uniqueID("log"), date: date, type: type, description: "Successful login", clientID: "client-1",
            clientName: "App", ip: "203.0.113.7", userAgent: "curl/8", userID: user, userName: "alice@example.com",
            audience: "https://api.example.com", scope: "openid profile",
            details: ["prompts": [["name": "login", "elapsedTime": 12]], "ok": true, "ratio": .number(0.5)])
    }

    @Test("Append a batch, read by id, search newest first with filters and totals", arguments: TestDatabase.available)
    func appendAndSearch(database: TestDatabase) async throws {
        try await database.withStore { store in
            let user = uniqueID("auth0|user")
            let events = (0..<5).map {
                Self.event(user: user, type: $0.isMultiple(of: 2) ? .loginSuccess : .wrongPassword)
            }
            try await store.appendLogs(events)
            try await store.appendLogs([events[0]])  // a retried event is not stored twice
            #expect(try await store.log(id: events[3].logID) == events[3])
            #expect(try await store.log(id: uniqueID("log")) == nil)

            let all = try await store.searchLogs(
                LogFilter(terms: ["user_id": [user]]), ascending: false, page: PageRequest(page: 0, perPage: 10))
            #expect(all.items == events.reversed() && all.total == 5)
            let oldestFirst = try await store.searchLogs(
                LogFilter(terms: ["user_id": [user]]), ascending: true, page: PageRequest(page: 0, perPage: 2))
            #expect(oldestFirst.items == Array(events[0..<2]) && oldestFirst.total == 5)
            let failures = try await store.searchLogs(
                LogFilter(terms: ["user_id": [user], "type": ["fp", "limit_wc"]]), ascending: false,
                page: PageRequest(page: 0, perPage: 10))
            #expect(failures.items == [events[3], events[1]] && failures.total == 2)
            let unknownField = try await store.searchLogs(
                LogFilter(terms: ["user_id": [user], "data": ["x"]]), ascending: false,
                page: PageRequest(page: 0, perPage: 10))
            #expect(unknownField.items.isEmpty && unknownField.total == 0)
        }
    }

    /// A search's total counts exactly up to 1,000 events and reports 1,000 beyond, like the reference platform's
    /// log search by criteria (SPEC §9 `include_totals`): a month of events is never counted whole.
    @Test(
        "A search's total stops at 1,000 events; below that it is exact",
        arguments: TestDatabase.available)
    func totalsAreCapped(database: TestDatabase) async throws {
        try await database.withStore { store in
            let user = uniqueID("auth0|user")
            try await store.appendLogs((0..<1_001).map { _ in Self.event(user: user) })
            let filter = LogFilter(terms: ["user_id": [user]])
            let first = try await store.searchLogs(filter, ascending: false, page: PageRequest(page: 0, perPage: 10))
            #expect(first.items.count == 10 && first.total == SQLStore.searchTotalCap)
            let last = try await store.searchLogs(filter, ascending: false, page: PageRequest(page: 10, perPage: 100))
            #expect(last.items.count == 1 && last.total == SQLStore.searchTotalCap)
            let nine = try await store.searchLogs(filter, ascending: false, page: PageRequest(page: 9, perPage: 100))
            #expect(nine.items.count == 100 && nine.total == SQLStore.searchTotalCap)
            try await store.appendLogs((0..<3).map { _ in Self.event(user: user, type: .wrongPassword) })
            let failures = try await store.searchLogs(
                LogFilter(terms: ["user_id": [user], "type": ["fp"]]), ascending: false,
                page: PageRequest(page: 0, perPage: 2))
            #expect(failures.items.count == 2 && failures.total == 3)
        }
    }

    @Test("The stored document: sorted keys, absent fields left out, every field read back (escapes too)")
    func documentText() throws {
        let bare = LogEvent(logID: "log_1", date: storedTime(), type: .clientCredentialsSucceeded)
        let bareDocument = LogEventDocument(bare)
        #expect(bareDocument.json == #"{"date":\#(bareDocument.date),"details":{},"log_id":"log_1","type":"seccft"}"#)
        let odd = LogEvent(
            logID: "log_2", date: storedTime(), type: .wrongPassword, description: "say \"hi\" <b>&</b>\n\t\u{1}",
            userAgent: "Mozilla/5.0 (X11; Linux) é 日本 \u{2028}", userName: "back\\slash",
            details: ["b": ["x": 1.5, "a": nil], "a": "→"])
        for event in [bare, odd, Self.event(user: "auth0|u")] {
            #expect(try JSONColumn.decode(LogEventDocument.self, from: LogEventDocument(event).json).event == event)
        }
    }

    @Test("Checkpoint paging: events after a log_id, oldest first", arguments: TestDatabase.available)
    func checkpoints(database: TestDatabase) async throws {
        try await database.withStore { store in
            let user = uniqueID("auth0|user")
            let events = (0..<7).map { _ in Self.event(user: user) }
            try await store.appendLogs(Array(events[0..<3]))
            try await store.appendLogs(Array(events[3...]))

            // Other tests may append to a shared database meanwhile: keep this test's events.
            var seen: [LogEvent] = []
            var checkpoint = events[0].logID
            while seen.count < events.count - 1 {
                let page = try await store.logs(after: checkpoint, take: 2)
                guard let last = page.last else { break }
                #expect(page.count <= 2)
                seen += page.filter { $0.userID == user }
                checkpoint = last.logID
            }
            #expect(seen == Array(events[1...]))
            #expect(try await store.logs(after: uniqueID("log"), take: 10).isEmpty)
            let fromStart = try await store.logs(after: nil, take: 3)
            #expect(fromStart.count == 3)
            if database.isIsolated { #expect(fromStart == Array(events[0..<3])) }
        }
    }

    @Test("A batch larger than one statement's rows is stored whole", arguments: TestDatabase.available)
    func largeBatch(database: TestDatabase) async throws {
        try await database.withStore { store in
            let user = uniqueID("auth0|user")
            let events = (0..<1_201).map { _ in Self.event(user: user, type: "gd_send_pn") }
            try await store.appendLogs(events)
            let filter = LogFilter(terms: ["user_id": [user]])
            let page = try await store.searchLogs(filter, ascending: true, page: PageRequest(page: 12, perPage: 100))
            #expect(page.items == [events[1_200]])
            let past = try await store.searchLogs(filter, ascending: true, page: PageRequest(page: 1_201, perPage: 1))
            #expect(past.items.isEmpty)
        }
    }

    @Test("The purge deletes events dated before the cut-off and counts them", arguments: TestDatabase.available)
    func purge(database: TestDatabase) async throws {
        try await database.withStore { store in
            let user = uniqueID("auth0|user")
            let ancient = Date(timeIntervalSince1970: 1_000_000_000)
            let old = (0..<2).map { Self.event(user: user, date: ancient.addingTimeInterval(Double($0))) }
            let recent = Self.event(user: user)
            try await store.appendLogs(old + [recent])
            let purged = try await store.purgeBatch(.logs, endedBefore: ancient.addingTimeInterval(60), limit: 1000)
            #expect(database.isIsolated ? purged == 2 : purged >= 2)
            #expect(try await store.log(id: old[0].logID) == nil)
            #expect(try await store.log(id: recent.logID) == recent)
        }
    }
}
