import Foundation
import Testing
import WardenCore
import WardenWire

@testable import WardenStorage

/// The operators' gauges read from storage (``WardenCore/GaugeStore``, README "Metrics"). The figures are the
/// whole database's: exact on the SQLite databases each test has to itself; on the PostgreSQL database the suites
/// share, at least what the test stored (other tests add theirs at the same time).
@Suite("GaugeStore: undecided CIBA requests and queued deliveries")
struct GaugeStoreTests {
    /// A pending push request created `age` seconds before `now` and living `lifetime` seconds.
    private static func request(now: Date, age: Double, lifetime: Double) -> BackchannelRequest {
        let createdAt = Date(millisecondsSince1970: now.millisecondsSince1970 - Int64(age * 1000))
        return BackchannelRequest(
            id: BackchannelRequest.ID(authRequestID: uniqueID("req")), consentID: uniqueID("cns"),
            clientID: uniqueID("client"), userID: uniqueID("auth0|user"), scope: ["openid"], audience: nil,
            bindingMessage: "Gauge", authorizationDetails: nil, channel: .push, approvalTokenHash: nil, ping: nil,
            createdAt: createdAt, expiresAt: createdAt.addingTimeInterval(lifetime))
    }

    @Test(
        "pending and expired undecided requests are told apart; decided ones are not counted",
        arguments: TestDatabase.available)
    func undecidedRequests(database: TestDatabase) async throws {
        try await database.withStore { store in
            let now = storedTime()
            let live = [Self.request(now: now, age: 10, lifetime: 300), Self.request(now: now, age: 1, lifetime: 60)]
            let expired = Self.request(now: now, age: 400, lifetime: 300)
            let decided = Self.request(now: now, age: 5, lifetime: 300)
            for request in live + [expired, decided] {
                _ = try await store.insertBackchannelRequest(request, limit: 10, window: 60)
            }
            _ = try await store.decideBackchannelRequest(id: decided.id, approved: false, at: now)

            let counts = try await store.undecidedBackchannelRequests(at: now)
            if database == .postgres {
                #expect(counts.pending >= 2 && counts.expired >= 1, "\(counts)")
            } else {
                #expect(counts.pending == 2 && counts.expired == 1, "\(counts)")
            }
        }
    }

    @Test("delivery jobs are counted by kind", arguments: TestDatabase.available)
    func deliveryJobsByKind(database: TestDatabase) async throws {
        try await database.withStore { store in
            let kind = DeliveryJob.Kind(rawValue: uniqueID("gauge_kind"))
            let other = DeliveryJob.Kind(rawValue: uniqueID("gauge_other"))
            let now = storedTime()
            let jobs = [kind, kind, kind, other].map {
                DeliveryJob(
                    id: uniqueID("job"), kind: $0, payload: "{}", nextAttemptAt: now,
                    expiresAt: now.addingTimeInterval(3600), createdAt: now)
            }
            try await store.insertDeliveryJobs(jobs)
            let counts = try await store.deliveryJobCounts()
            #expect(counts[kind] == 3 && counts[other] == 1, "\(counts)")
            for job in jobs { try await store.deleteDeliveryJob(id: job.id) }
            #expect(try await store.deliveryJobCounts()[kind] == nil)
        }
    }
}
