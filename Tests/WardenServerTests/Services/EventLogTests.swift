import Foundation
import HTTPTypes
import HummingbirdTesting
import Logging
import Synchronization
import Testing
import WardenCore
import WardenTesting
import WardenWire

@testable import WardenServer

/// SPEC §10: log writes never block or fail a request; an event is written once storage answers again.
@Suite("Event log")
struct EventLogTests {
    /// A log store that fails while `failing` is set (a database outage), recording what it was given.
    final class FlakyLogStore: LogStore {
        let failing = Mutex(true)
        let written = Mutex<[WardenCore.LogEvent]>([])

        func appendLogs(_ events: [WardenCore.LogEvent]) async throws {
            if failing.withLock({ $0 }) { throw StorageError.notFound }
            written.withLock { $0.append(contentsOf: events) }
        }
        func log(id: String) async throws -> WardenCore.LogEvent? { nil }
        func searchLogs(_ filter: LogFilter, ascending: Bool, page: PageRequest) async throws -> PageResult<
            WardenCore.LogEvent
        > { PageResult(items: [], total: 0) }
        func logs(after logID: String?, take: Int) async throws -> [WardenCore.LogEvent] { [] }
    }

    @Test func aFailingStoreLosesNothingAndFailsNobody() async throws {
        let store = FlakyLogStore()
        let log = EventLog(store: store, logger: Logger(label: "event-log-test"))
        for index in 0..<3 {
            log.record(WardenCore.LogEvent(date: Date(), type: .clientCredentialsSucceeded, description: "\(index)"))
        }
        await log.flush()
        #expect(store.written.withLock { $0.isEmpty })
        store.failing.withLock { $0 = false }
        log.record(WardenCore.LogEvent(date: Date(), type: .clientCredentialsFailed, description: "3"))
        await log.flush()
        #expect(store.written.withLock { $0.map(\.description) } == ["0", "1", "2", "3"])
    }

    /// SPEC §11: an unauthenticated `client_id` of 60,000 characters is logged (`feccft`) cut to 256 characters.
    @Test func aHugeClientIDIsLoggedCut() async throws {
        let warden = try await TestWarden.make()
        let prefix = "huge-" + RandomToken.identifier(prefix: "", length: 12)
        let clientID = prefix + String(repeating: "c", count: 60_000)
        try await warden.test { http in
            let response = try await http.postForm(
                "/oauth/token",
                [
                    ("grant_type", "client_credentials"), ("client_id", clientID), ("client_secret", "nope"),
                    ("audience", "https://api.example.com"),
                ])
            #expect(response.status == .unauthorized)
        }
        await warden.flushLogs()
        let events = try await warden.runtime.store.searchLogs(
            LogFilter(terms: ["type": ["feccft"]]), ascending: true, page: PageRequest(page: 0, perPage: 100)
        ).items.filter { $0.clientID?.hasPrefix(prefix) == true }
        #expect(events.count == 1)
        let logged = try #require(events.first?.clientID)
        #expect(logged.count == 256)
        #expect(logged.hasSuffix(WardenCore.LogEvent.truncationMarker))
    }
}
