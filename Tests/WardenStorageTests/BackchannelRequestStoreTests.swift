import Foundation
import Testing
import WardenCore
import WardenWire

@testable import WardenStorage

@Suite("BackchannelRequestStore: per-user limit, one decision, one redemption")
struct BackchannelRequestStoreTests {
    /// SPEC §6.1: 5 requests per minute per user.
    private static let limit = 5
    private static let window: Double = 60

    /// `seconds` after `date`, in whole milliseconds (as stored), so that computed times compare equal.
    private static func at(_ date: Date, _ seconds: Double) -> Date {
        Date(millisecondsSince1970: date.millisecondsSince1970 + Int64((seconds * 1000).rounded()))
    }

    /// A pending e-mail request of a fresh user and client, with every optional field set, expiring after
    /// `lifetime` seconds.
    private static func request(
        userID: String = uniqueID("auth0|user"), clientID: String = uniqueID("client"), createdAt: Date = storedTime(),
        lifetime: TimeInterval = 300
    ) -> BackchannelRequest {
        BackchannelRequest(
            id: BackchannelRequest.ID(authRequestID: uniqueID("req")), consentID: uniqueID("cns"), clientID: clientID,
            userID: userID,
            scope: ["openid", "read:balance", "transfer:funds"], audience: "https://api.example.com",
            bindingMessage: "Überweisung #42: 100,50 EUR",
            authorizationDetails: [
                [
                    "type": "money_transfer",
                    "instructedAmount": ["currency": "EUR", "amount": .number(100.5)],
                    "creditor": ["name": "Bob", "account": ["iban": "DE02120300000000202051", "bic": nil]],
                    "tags": ["rent", 3, true, nil, []],
                ],
                ["type": "money_transfer", "instructedAmount": ["currency": "USD", "amount": 7]],
            ],
            channel: .email, approvalTokenHash: uniqueID("approval"),
            ping: BackchannelRequest.Ping(
                endpoint: "https://client.example.com/ciba/notify?x=1&y=2",
                clientNotificationToken: uniqueID("cnt"), authRequestID: uniqueID("auth_req")),
            createdAt: createdAt, expiresAt: at(createdAt, lifetime))
    }

    /// A push request with every optional field `nil`.
    private static func bareRequest(userID: String = uniqueID("auth0|user")) -> BackchannelRequest {
        let createdAt = storedTime()
        return BackchannelRequest(
            id: BackchannelRequest.ID(authRequestID: uniqueID("req")), consentID: uniqueID("cns"),
            clientID: uniqueID("client"), userID: userID,
            scope: ["openid"], audience: nil, bindingMessage: "Login", authorizationDetails: nil, channel: .push,
            approvalTokenHash: nil, ping: nil, createdAt: createdAt, expiresAt: at(createdAt, 120))
    }

    private static func insert(_ request: BackchannelRequest, into store: SQLStore) async throws
        -> BackchannelInsertResult
    {
        try await store.insertBackchannelRequest(request, limit: limit, window: window)
    }

    /// Inserts `request`, recording an issue unless it is accepted under the limit.
    private static func insertAccepted(
        _ request: BackchannelRequest, into store: SQLStore, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let result = try await insert(request, into: store)
        #expect(result == .inserted, sourceLocation: sourceLocation)
    }

    @Test("insert stores every field, found by id, consent id and approval token", arguments: TestDatabase.available)
    func roundTrip(database: TestDatabase) async throws {
        try await database.withStore { store in
            let full = Self.request()
            try await Self.insertAccepted(full, into: store)
            #expect(try await store.backchannelRequest(id: full.id) == full)
            #expect(try await store.backchannelRequest(consentID: full.consentID) == full)
            #expect(try await store.backchannelRequest(approvalTokenHash: full.approvalTokenHash!) == full)

            let bare = Self.bareRequest()
            try await Self.insertAccepted(bare, into: store)
            #expect(try await store.backchannelRequest(id: bare.id) == bare)
            #expect(try await store.backchannelRequest(consentID: bare.consentID) == bare)

            var decided = Self.request()
            decided.status = .approved
            decided.decidedAt = storedTime(5)
            try await Self.insertAccepted(decided, into: store)
            #expect(try await store.backchannelRequest(id: decided.id) == decided)

            #expect(
                try await store.backchannelRequest(id: BackchannelRequest.ID(authRequestID: uniqueID("req"))) == nil)
            #expect(try await store.backchannelRequest(consentID: uniqueID("cns")) == nil)
            #expect(try await store.backchannelRequest(approvalTokenHash: uniqueID("approval")) == nil)
        }
    }

    @Test("a taken id, consent id or approval token is a conflict", arguments: TestDatabase.available)
    func conflicts(database: TestDatabase) async throws {
        try await database.withStore { store in
            let original = Self.request()
            try await Self.insertAccepted(original, into: store)
            let conflict = StorageError.conflict("The CIBA request already exists")

            var sameID = Self.request()
            sameID.id = original.id
            var sameConsent = Self.request()
            sameConsent.consentID = original.consentID
            var sameToken = Self.request()
            sameToken.approvalTokenHash = original.approvalTokenHash
            for duplicate in [sameID, sameConsent, sameToken] {
                await #expect(throws: conflict) { try await Self.insert(duplicate, into: store) }
                #expect(try await store.backchannelRequest(consentID: duplicate.consentID) != duplicate)
            }
            #expect(try await store.backchannelRequest(id: original.id) == original)

            // Requests without an approval token (push) do not collide on it.
            try await Self.insertAccepted(Self.bareRequest(), into: store)
            try await Self.insertAccepted(Self.bareRequest(), into: store)
        }
    }

    @Test(
        "the e-mail's job is stored with its request, and not when the limit or a conflict refuses the request",
        arguments: TestDatabase.available)
    func deliveryJobsGoWithTheRequest(database: TestDatabase) async throws {
        try await database.withStore { store in
            // Jobs due at a random instant after 2200, which no other test's jobs are due at.
            let due = Date(millisecondsSince1970: Int64.random(in: 7_258_118_400_000..<9_000_000_000_000))
            func job() -> DeliveryJob {
                DeliveryJob(
                    id: uniqueID("job"), kind: .backchannelMail, payload: #"{"request":"r"}"#, attempts: 0,
                    nextAttemptAt: due, expiresAt: Self.at(due, 3600), createdAt: Self.at(due, -1))
            }
            func claim() async throws -> [String] {
                try await store.claimDeliveryJobs(now: due, leaseUntil: Self.at(due, 30), limit: 10).map(\.id)
            }
            let stored = job()
            let original = Self.request()
            let inserted = try await store.insertBackchannelRequest(
                original, limit: Self.limit, window: Self.window, deliveryJobs: [stored])
            #expect(inserted == .inserted)
            #expect(try await claim() == [stored.id])

            var duplicate = Self.request()
            duplicate.id = original.id
            await #expect(throws: StorageError.conflict("The CIBA request already exists")) {
                try await store.insertBackchannelRequest(
                    duplicate, limit: Self.limit, window: Self.window, deliveryJobs: [job()])
            }
            let user = uniqueID("auth0|user")
            for _ in 0..<Self.limit { try await Self.insertAccepted(Self.request(userID: user), into: store) }
            let limited = try await store.insertBackchannelRequest(
                Self.request(userID: user), limit: Self.limit, window: Self.window, deliveryJobs: [job()])
            #expect(limited != .inserted)
            #expect(try await claim() == [], "no job of a request that was not stored")
        }
    }

    @Test(
        "the sixth request in a minute is limited until the oldest leaves the window", arguments: TestDatabase.available
    )
    func rateLimit(database: TestDatabase) async throws {
        try await database.withStore { store in
            let user = uniqueID("auth0|user")
            let start = storedTime()
            for second in 0..<Self.limit {
                let request = Self.request(userID: user, createdAt: Self.at(start, Double(second)))
                try await Self.insertAccepted(request, into: store)
            }
            let sixth = Self.request(userID: user, createdAt: Self.at(start, 30))
            #expect(try await Self.insert(sixth, into: store) == .limited(retryAt: Self.at(start, 60)))
            #expect(try await store.backchannelRequest(id: sixth.id) == nil, "a limited request is not stored")

            // Each request came from another client: the limit is the user's. Other users are not affected.
            try await Self.insertAccepted(Self.request(createdAt: Self.at(start, 30)), into: store)

            // At retryAt the oldest has left the window (created_at > createdAt - window); just before, it has not.
            let early = Self.request(userID: user, createdAt: Self.at(start, 59.999))
            #expect(try await Self.insert(early, into: store) == .limited(retryAt: Self.at(start, 60)))
            let onTime = Self.request(userID: user, createdAt: Self.at(start, 60))
            try await Self.insertAccepted(onTime, into: store)
            let next = Self.request(userID: user, createdAt: Self.at(start, 60.5))
            #expect(try await Self.insert(next, into: store) == .limited(retryAt: Self.at(start, 61)))
        }
    }

    @Test("requests older than the window do not count", arguments: TestDatabase.available)
    func olderRequestsDoNotCount(database: TestDatabase) async throws {
        try await database.withStore { store in
            let user = uniqueID("auth0|user")
            let start = storedTime()
            // Created long before, or exactly one window before: outside the window of a request made at `start`.
            for offset in [-3600.0, -120, -61, -60] {
                let old = Self.request(userID: user, createdAt: Self.at(start, offset), lifetime: 7200)
                try await Self.insertAccepted(old, into: store)
            }
            for second in 0..<Self.limit {
                let request = Self.request(userID: user, createdAt: Self.at(start, Double(second) / 10))
                try await Self.insertAccepted(request, into: store)
            }
            let limited = Self.request(userID: user, createdAt: Self.at(start, 1))
            #expect(try await Self.insert(limited, into: store) == .limited(retryAt: Self.at(start, 60)))
        }
    }

    @Test("20 concurrent inserts for one user: exactly 5 inserted", arguments: TestDatabase.available)
    func concurrentInserts(database: TestDatabase) async throws {
        try await database.withStore { store in
            let user = uniqueID("auth0|user")
            let requests = (0..<20).map { _ in Self.request(userID: user) }
            let results = try await withThrowingTaskGroup(of: (BackchannelRequest.ID, BackchannelInsertResult).self) {
                group in
                for request in requests {
                    group.addTask { (request.id, try await Self.insert(request, into: store)) }
                }
                return try await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
            }
            let inserted = Set(results.filter { $0.value == .inserted }.keys)
            #expect(inserted.count == Self.limit)
            #expect(results.values.count(where: { if case .limited = $0 { true } else { false } }) == 20 - Self.limit)
            for request in requests {
                let stored = try await store.backchannelRequest(id: request.id)
                #expect(stored == (inserted.contains(request.id) ? request : nil))
            }
        }
    }

    @Test("decide: once; a second decision sees the first; unknown is notFound", arguments: TestDatabase.available)
    func decide(database: TestDatabase) async throws {
        try await database.withStore { store in
            let request = Self.request()
            try await Self.insertAccepted(request, into: store)
            let now = storedTime(10)
            var approved = request
            approved.status = .approved
            approved.decidedAt = now
            #expect(
                try await store.decideBackchannelRequest(id: request.id, approved: true, at: now) == .decided(approved))
            #expect(try await store.backchannelRequest(id: request.id) == approved)
            #expect(
                try await store.decideBackchannelRequest(id: request.id, approved: false, at: now.addingTimeInterval(1))
                    == .alreadyDecided(approved))
            // Decided, then expired: still alreadyDecided.
            #expect(
                try await store.decideBackchannelRequest(id: request.id, approved: true, at: request.expiresAt)
                    == .alreadyDecided(approved))

            let denied = Self.request()
            try await Self.insertAccepted(denied, into: store)
            var deniedRecord = denied
            deniedRecord.status = .denied
            deniedRecord.decidedAt = now
            #expect(
                try await store.decideBackchannelRequest(id: denied.id, approved: false, at: now)
                    == .decided(deniedRecord))
            #expect(
                try await store.decideBackchannelRequest(id: denied.id, approved: true, at: now)
                    == .alreadyDecided(deniedRecord))

            #expect(
                try await store.decideBackchannelRequest(
                    id: BackchannelRequest.ID(authRequestID: uniqueID("req")), approved: true, at: now) == .notFound)
        }
    }

    @Test("decide after expiry is .expired and changes nothing", arguments: TestDatabase.available)
    func decideExpired(database: TestDatabase) async throws {
        try await database.withStore { store in
            let request = Self.request()
            try await Self.insertAccepted(request, into: store)
            for now in [request.expiresAt, request.expiresAt.addingTimeInterval(60)] {
                #expect(
                    try await store.decideBackchannelRequest(id: request.id, approved: true, at: now)
                        == .expired(request))
            }
            #expect(try await store.backchannelRequest(id: request.id) == request)
            let justBefore = request.expiresAt.addingTimeInterval(-0.001)
            guard
                case .decided = try await store.decideBackchannelRequest(id: request.id, approved: true, at: justBefore)
            else {
                Issue.record("a request can be decided until it expires")
                return
            }
        }
    }

    @Test("50 concurrent decisions (approve and deny): exactly one .decided", arguments: TestDatabase.available)
    func concurrentDecisions(database: TestDatabase) async throws {
        try await database.withStore { store in
            let request = Self.request()
            try await Self.insertAccepted(request, into: store)
            let results = try await withThrowingTaskGroup(of: BackchannelDecision.self) { group in
                for index in 0..<50 {
                    group.addTask {
                        try await store.decideBackchannelRequest(
                            id: request.id, approved: index.isMultiple(of: 2), at: Date())
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let decided = results.compactMap { if case .decided(let record) = $0 { record } else { nil } }
            let already = results.compactMap { if case .alreadyDecided(let record) = $0 { record } else { nil } }
            #expect(decided.count == 1)
            #expect(already.count == 49)
            let winner = try #require(decided.first)
            #expect(winner.status == .approved || winner.status == .denied)
            #expect(winner.decidedAt != nil)
            #expect(already.allSatisfy { $0 == winner }, "every loser sees the winner's decision")
            #expect(try await store.backchannelRequest(id: request.id) == winner)
        }
    }

    @Test("redeem: only approved, unexpired, by its own client, once", arguments: TestDatabase.available)
    func redeem(database: TestDatabase) async throws {
        try await database.withStore { store in
            let request = Self.request()
            try await Self.insertAccepted(request, into: store)
            let now = storedTime(10)
            #expect(
                try await store.redeemBackchannelRequest(id: request.id, clientID: request.clientID, at: now)
                    == .refused(request), "pending")

            guard
                case .decided(let approved) = try await store.decideBackchannelRequest(
                    id: request.id, approved: true, at: now)
            else {
                Issue.record("the decision must be recorded")
                return
            }
            #expect(
                try await store.redeemBackchannelRequest(id: request.id, clientID: uniqueID("client"), at: now)
                    == .refused(nil), "another client learns nothing about the request")
            #expect(
                try await store.redeemBackchannelRequest(
                    id: BackchannelRequest.ID(authRequestID: uniqueID("req")), clientID: request.clientID, at: now)
                    == .refused(nil), "unknown")

            var redeemed = approved
            redeemed.status = .redeemed
            #expect(
                try await store.redeemBackchannelRequest(id: request.id, clientID: request.clientID, at: now)
                    == .redeemed(redeemed))
            #expect(try await store.backchannelRequest(id: request.id) == redeemed)
            #expect(
                try await store.redeemBackchannelRequest(id: request.id, clientID: request.clientID, at: now)
                    == .refused(redeemed))
            #expect(
                try await store.decideBackchannelRequest(id: request.id, approved: false, at: now)
                    == .alreadyDecided(redeemed), "a redeemed request cannot be decided again")

            let denied = Self.request()
            try await Self.insertAccepted(denied, into: store)
            guard
                case .decided(let deniedRecord) = try await store.decideBackchannelRequest(
                    id: denied.id, approved: false, at: now)
            else {
                Issue.record("the decision must be recorded")
                return
            }
            #expect(
                try await store.redeemBackchannelRequest(id: denied.id, clientID: denied.clientID, at: now)
                    == .refused(deniedRecord))
        }
    }

    @Test("redeem after expiry is refused and leaves the request approved", arguments: TestDatabase.available)
    func redeemExpired(database: TestDatabase) async throws {
        try await database.withStore { store in
            let request = Self.request()
            try await Self.insertAccepted(request, into: store)
            guard
                case .decided(let approved) = try await store.decideBackchannelRequest(
                    id: request.id, approved: true, at: storedTime(1))
            else {
                Issue.record("the decision must be recorded")
                return
            }
            for now in [request.expiresAt, request.expiresAt.addingTimeInterval(60)] {
                #expect(
                    try await store.redeemBackchannelRequest(id: request.id, clientID: request.clientID, at: now)
                        == .refused(approved))
            }
            #expect(try await store.backchannelRequest(id: request.id) == approved)
        }
    }

    @Test("50 concurrent redemptions: exactly one .redeemed", arguments: TestDatabase.available)
    func concurrentRedemptions(database: TestDatabase) async throws {
        try await database.withStore { store in
            let request = Self.request()
            try await Self.insertAccepted(request, into: store)
            guard case .decided = try await store.decideBackchannelRequest(id: request.id, approved: true, at: Date())
            else {
                Issue.record("the decision must be recorded")
                return
            }
            let results = try await withThrowingTaskGroup(of: BackchannelRedemption.self) { group in
                for _ in 0..<50 {
                    group.addTask {
                        try await store.redeemBackchannelRequest(id: request.id, clientID: request.clientID, at: Date())
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let redeemed = results.compactMap { if case .redeemed(let record) = $0 { record } else { nil } }
            let refused = results.compactMap { if case .refused(let record) = $0 { record } else { nil } }
            #expect(redeemed.count == 1)
            #expect(refused.count == 49)
            let winner = try #require(redeemed.first)
            #expect(winner.status == .redeemed)
            #expect(refused.allSatisfy { $0 == winner }, "every loser sees the redemption")
        }
    }

    @Test("purge deletes the requests expired before the date, whatever their state", arguments: TestDatabase.available)
    func purge(database: TestDatabase) async throws {
        try await database.withStore { store in
            // Long ago, so that a purge elsewhere on a shared database meets none of the other tests' requests.
            let start = Date(millisecondsSince1970: Int64.random(in: 946_684_800_000..<1_262_304_000_000))
            let expired = Self.request(createdAt: start, lifetime: 60)
            var decided = Self.request(createdAt: start, lifetime: 120)
            decided.status = .approved
            decided.decidedAt = Self.at(start, 5)
            // Expiring long after any purge of a test: a purge elsewhere on a shared database never takes it.
            let live = Self.request(createdAt: start, lifetime: 200 * 365 * 86_400)
            for request in [expired, decided, live] {
                try await Self.insertAccepted(request, into: store)
            }
            // Expiring exactly at the date is not expired before it.
            let early = try await store.purgeBatch(.backchannelRequests, endedBefore: Self.at(start, 60), limit: 1000)
            if database.isIsolated {
                #expect(early == 0)
                #expect(try await store.backchannelRequest(id: expired.id) == expired)
            }

            let purged = try await store.purgeBatch(.backchannelRequests, endedBefore: Self.at(start, 121), limit: 1000)
            if database.isIsolated { #expect(purged == 2) }
            #expect(try await store.backchannelRequest(id: expired.id) == nil)
            #expect(try await store.backchannelRequest(id: decided.id) == nil)
            #expect(try await store.backchannelRequest(id: live.id) == live)
            if database.isIsolated {
                #expect(
                    try await store.purgeBatch(.backchannelRequests, endedBefore: Self.at(start, 121), limit: 1000) == 0
                )
            }
        }
    }
}
