import Foundation
import Testing
import WardenCore
import WardenWire

@testable import WardenStorage

@Suite("DeviceStore: enrolments, push-enrolment check, transactions")
struct DeviceStoreTests {
    private static let alreadyEnrolled = StorageError.conflict("already_enrolled")

    /// `seconds` after `date`, in whole milliseconds (as stored), so that computed times compare equal.
    private static func at(_ date: Date, _ seconds: Double) -> Date {
        Date(millisecondsSince1970: date.millisecondsSince1970 + Int64((seconds * 1000).rounded()))
    }

    /// A fresh enrolment of `userID`, with APNs push credentials unless `push` is `nil`.
    private static func enrollment(
        userID: String = uniqueID("auth0|user"), identifier: String = uniqueID("device"),
        push: DeviceEnrollment.PushCredentials? = .init(service: "APNS", token: uniqueID("apns")),
        pushDisabled: Bool = false, createdAt: Date = storedTime()
    ) -> DeviceEnrollment {
        DeviceEnrollment(
            id: uniqueID("dev"), userID: userID, identifier: identifier, name: "Ana’s iPhone 15 \u{1F4F1}",
            pushCredentials: push, pushDisabled: pushDisabled,
            publicKeyModulus: "u1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gunVTLw7onLRnrq0_IzW7yWR7QkrmBL7jTKEn5u",
            publicKeyExponent: "AQAB", tokenHash: uniqueID("token"), totpSecret: "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP",
            createdAt: createdAt)
    }

    /// A pending push request of `userID`, created at `createdAt` and expiring `lifetime` seconds later.
    private static func request(userID: String, createdAt: Date = storedTime(), lifetime: TimeInterval = 300)
        -> BackchannelRequest
    {
        BackchannelRequest(
            id: BackchannelRequest.ID(authRequestID: uniqueID("req")), consentID: uniqueID("cns"),
            clientID: uniqueID("client"), userID: userID,
            scope: ["openid"], audience: nil, bindingMessage: "Login", authorizationDetails: nil, channel: .push,
            approvalTokenHash: nil, ping: nil, createdAt: createdAt, expiresAt: at(createdAt, lifetime))
    }

    /// Stores `request` through the CIBA store, with a limit that never refuses it.
    private static func insert(_ request: BackchannelRequest, into store: SQLStore) async throws {
        let result = try await store.insertBackchannelRequest(request, limit: 1000, window: 60)
        #expect(result == .inserted)
    }

    /// A transaction of `request` sent to `enrollment`, created `offset` seconds after the request.
    private static func transaction(
        _ request: BackchannelRequest, _ enrollment: DeviceEnrollment, offset: Double = 0
    ) -> DeviceTransaction {
        DeviceTransaction(
            id: uniqueID("dtx"), requestID: request.id, enrollmentID: enrollment.id,
            challenge: uniqueID("challenge"), createdAt: at(request.createdAt, offset), expiresAt: request.expiresAt)
    }

    @Test("insert stores every field, found by id and token hash", arguments: TestDatabase.available)
    func roundTrip(database: TestDatabase) async throws {
        try await database.withStore { store in
            let withPush = Self.enrollment(push: .init(service: "FCM", token: uniqueID("fcm")), pushDisabled: true)
            let withoutPush = Self.enrollment(push: nil)
            for enrollment in [withPush, withoutPush] {
                try await store.insertDeviceEnrollment(enrollment)
                #expect(try await store.deviceEnrollment(id: enrollment.id) == enrollment)
                #expect(try await store.deviceEnrollment(tokenHash: enrollment.tokenHash) == enrollment)
                #expect(try await store.deviceEnrollments(userID: enrollment.userID) == [enrollment])
            }
            #expect(try await store.deviceEnrollment(id: uniqueID("dev")) == nil)
            #expect(try await store.deviceEnrollment(tokenHash: uniqueID("token")) == nil)
            #expect(try await store.deviceEnrollments(userID: uniqueID("auth0|user")) == [])
        }
    }

    @Test("a user's enrolments come oldest first, and only theirs", arguments: TestDatabase.available)
    func byUser(database: TestDatabase) async throws {
        try await database.withStore { store in
            let user = uniqueID("auth0|user")
            let start = storedTime()
            let newest = Self.enrollment(userID: user, createdAt: Self.at(start, 20))
            let oldest = Self.enrollment(userID: user, push: nil, createdAt: Self.at(start, -20))
            let middle = Self.enrollment(userID: user, createdAt: start)
            let someoneElses = Self.enrollment(createdAt: start)
            for enrollment in [newest, oldest, someoneElses, middle] {
                try await store.insertDeviceEnrollment(enrollment)
            }
            #expect(try await store.deviceEnrollments(userID: user) == [oldest, middle, newest])
            #expect(try await store.deviceEnrollments(userID: someoneElses.userID) == [someoneElses])
            #expect(try await store.deviceEnrollment(userID: user, identifier: middle.identifier) == middle)
            #expect(try await store.deviceEnrollment(userID: user, identifier: someoneElses.identifier) == nil)
            #expect(try await store.deviceEnrollment(userID: someoneElses.userID, identifier: middle.identifier) == nil)
        }
    }

    @Test(
        "an identifier the user already enrolled is already_enrolled; another user may use it",
        arguments: TestDatabase.available)
    func conflicts(database: TestDatabase) async throws {
        try await database.withStore { store in
            let original = Self.enrollment()
            try await store.insertDeviceEnrollment(original)

            let again = Self.enrollment(userID: original.userID, identifier: original.identifier)
            await #expect(throws: Self.alreadyEnrolled) { try await store.insertDeviceEnrollment(again) }
            #expect(try await store.deviceEnrollment(id: again.id) == nil)

            // A taken id or token hash is a conflict too, but not already_enrolled.
            var sameID = Self.enrollment(userID: original.userID)
            sameID.id = original.id
            var sameToken = Self.enrollment(userID: original.userID)
            sameToken.tokenHash = original.tokenHash
            for duplicate in [sameID, sameToken] {
                let error = await #expect(throws: StorageError.self) {
                    try await store.insertDeviceEnrollment(duplicate)
                }
                guard case .conflict(let message) = error else {
                    Issue.record("expected a conflict, got \(String(describing: error))")
                    continue
                }
                #expect(message != "already_enrolled")
                #expect(try await store.deviceEnrollment(tokenHash: duplicate.tokenHash) != duplicate)
            }
            #expect(try await store.deviceEnrollments(userID: original.userID) == [original])

            let otherUser = Self.enrollment(identifier: original.identifier)
            try await store.insertDeviceEnrollment(otherUser)
            #expect(try await store.deviceEnrollment(id: otherUser.id) == otherUser)
        }
    }

    @Test(
        "update replaces name, identifier, push credentials and pushDisabled only; missing is notFound",
        arguments: TestDatabase.available)
    func update(database: TestDatabase) async throws {
        try await database.withStore { store in
            let original = Self.enrollment()
            let sibling = Self.enrollment(userID: original.userID)
            try await store.insertDeviceEnrollment(original)
            try await store.insertDeviceEnrollment(sibling)

            var changed = original
            changed.name = "Work phone"
            changed.identifier = uniqueID("device")
            changed.pushCredentials = .init(service: "WEBHOOK", token: uniqueID("hook"))
            changed.pushDisabled = true
            try await store.updateDeviceEnrollment(changed)
            #expect(try await store.deviceEnrollment(id: original.id) == changed)

            var withoutPush = changed
            withoutPush.pushCredentials = nil
            withoutPush.pushDisabled = false
            // Not replaced: the key, token, TOTP secret and creation stay as enrolled.
            var ignored = withoutPush
            ignored.publicKeyModulus = "AQAB"
            ignored.totpSecret = "MFRGGZDFMZTWQ2LK"
            ignored.createdAt = Self.at(original.createdAt, 3600)
            try await store.updateDeviceEnrollment(ignored)
            #expect(try await store.deviceEnrollment(id: original.id) == withoutPush)
            #expect(try await store.deviceEnrollment(tokenHash: original.tokenHash) == withoutPush)

            // Keeping its own identifier is no conflict.
            var renamed = withoutPush
            renamed.name = "Old phone"
            try await store.updateDeviceEnrollment(renamed)
            #expect(try await store.deviceEnrollment(id: original.id) == renamed)

            var taken = renamed
            taken.identifier = sibling.identifier
            taken.name = "Should not be stored"
            await #expect(throws: Self.alreadyEnrolled) { try await store.updateDeviceEnrollment(taken) }
            #expect(try await store.deviceEnrollment(id: original.id) == renamed)

            // Another user's identifier is free for this one.
            let stranger = Self.enrollment()
            try await store.insertDeviceEnrollment(stranger)
            var sharing = renamed
            sharing.identifier = stranger.identifier
            try await store.updateDeviceEnrollment(sharing)
            #expect(try await store.deviceEnrollment(id: original.id) == sharing)

            let missing = Self.enrollment()
            await #expect(throws: StorageError.notFound) { try await store.updateDeviceEnrollment(missing) }
            #expect(try await store.deviceEnrollment(id: missing.id) == nil)
        }
    }

    @Test("delete removes the enrolment and its transactions only", arguments: TestDatabase.available)
    func delete(database: TestDatabase) async throws {
        try await database.withStore { store in
            let user = uniqueID("auth0|user")
            let doomed = Self.enrollment(userID: user)
            let kept = Self.enrollment(userID: user)
            try await store.insertDeviceEnrollment(doomed)
            try await store.insertDeviceEnrollment(kept)
            let request = Self.request(userID: user)
            try await Self.insert(request, into: store)
            let doomedTransaction = Self.transaction(request, doomed)
            let keptTransaction = Self.transaction(request, kept)
            try await store.insertDeviceTransactions([doomedTransaction, keptTransaction])

            #expect(try await store.deleteDeviceEnrollment(id: doomed.id))
            #expect(try await store.deviceEnrollment(id: doomed.id) == nil)
            #expect(try await store.deviceTransaction(id: doomedTransaction.id) == nil)
            #expect(try await store.deviceEnrollments(userID: user) == [kept])
            #expect(try await store.deviceTransaction(id: keptTransaction.id) == keptTransaction)
            #expect(try await store.deleteDeviceEnrollment(id: doomed.id) == false)
            #expect(try await store.deleteDeviceEnrollment(id: uniqueID("dev")) == false)

            // The identifier is free again.
            try await store.insertDeviceEnrollment(Self.enrollment(userID: user, identifier: doomed.identifier))
        }
    }

    @Test(
        "push-enrolled: any device with push credentials, even a disabled one", arguments: TestDatabase.available)
    func pushEnrolled(database: TestDatabase) async throws {
        try await database.withStore { store in
            let user = uniqueID("auth0|user")
            #expect(try await store.hasPushEnrolledDevice(userID: user) == false)
            try await store.insertDeviceEnrollment(Self.enrollment(userID: user, push: nil))
            #expect(try await store.hasPushEnrolledDevice(userID: user) == false)

            let pushed = Self.enrollment(userID: user, push: .init(service: "STREAM", token: uniqueID("stream")))
            try await store.insertDeviceEnrollment(pushed)
            try await store.insertDeviceEnrollment(Self.enrollment(userID: user))
            #expect(try await store.hasPushEnrolledDevice(userID: user))

            let disabledUser = uniqueID("auth0|user")
            try await store.insertDeviceEnrollment(Self.enrollment(userID: disabledUser, pushDisabled: true))
            #expect(try await store.hasPushEnrolledDevice(userID: disabledUser))

            // Removing the push credentials of its last pushed device ends it.
            let single = Self.enrollment()
            try await store.insertDeviceEnrollment(single)
            #expect(try await store.hasPushEnrolledDevice(userID: single.userID))
            var unpushed = single
            unpushed.pushCredentials = nil
            try await store.updateDeviceEnrollment(unpushed)
            #expect(try await store.hasPushEnrolledDevice(userID: single.userID) == false)
        }
    }

    @Test(
        "transactions: stored all or none, found by id, one per request and device",
        arguments: TestDatabase.available)
    func transactions(database: TestDatabase) async throws {
        try await database.withStore { store in
            let user = uniqueID("auth0|user")
            let devices = [Self.enrollment(userID: user), Self.enrollment(userID: user), Self.enrollment(userID: user)]
            for device in devices { try await store.insertDeviceEnrollment(device) }
            let request = Self.request(userID: user)
            try await Self.insert(request, into: store)

            let sent = devices.map { Self.transaction(request, $0) }
            try await store.insertDeviceTransactions(sent)
            for transaction in sent {
                #expect(try await store.deviceTransaction(id: transaction.id) == transaction)
            }
            #expect(try await store.deviceTransaction(id: uniqueID("dtx")) == nil)
            try await store.insertDeviceTransactions([])

            // An id that exists, one repeated within the batch, or a second transaction of the same request to
            // the same device: nothing of the batch is stored.
            let other = Self.request(userID: user)
            try await Self.insert(other, into: store)
            var existing = Self.transaction(other, devices[2])
            existing.id = sent[2].id
            let fresh = [Self.transaction(other, devices[0]), Self.transaction(other, devices[1])]
            var repeated = Self.transaction(other, devices[2])
            repeated.id = fresh[0].id
            let sameDevice = Self.transaction(other, devices[0])
            for batch in [fresh + [existing], fresh + [repeated], fresh + [sameDevice]] {
                await #expect(throws: StorageError.self) { try await store.insertDeviceTransactions(batch) }
                for transaction in fresh {
                    #expect(try await store.deviceTransaction(id: transaction.id) == nil)
                }
            }
            #expect(try await store.deviceTransaction(id: sent[2].id) == sent[2])
            #expect(try await store.pendingDeviceTransactions(enrollmentID: devices[0].id, now: Date()) == [sent[0]])
        }
    }

    @Test(
        "a request's transactions to more devices than one INSERT holds are stored all or none",
        arguments: TestDatabase.available)
    func largeFanOut(database: TestDatabase) async throws {
        try await database.withStore { store in
            let user = uniqueID("auth0|user")
            let request = Self.request(userID: user)
            try await Self.insert(request, into: store)
            let devices = (0..<1_100).map { _ in Self.enrollment(userID: user) }
            let sent = devices.map { Self.transaction(request, $0) }
            var repeated = Self.transaction(request, Self.enrollment(userID: user))
            repeated.id = sent[1].id
            await #expect(throws: StorageError.self) { try await store.insertDeviceTransactions(sent + [repeated]) }
            #expect(try await store.deviceTransaction(id: sent[0].id) == nil)
            try await store.insertDeviceTransactions(sent)
            #expect(try await store.deviceTransaction(id: sent[0].id) == sent[0])
            #expect(try await store.deviceTransaction(id: sent[1_099].id) == sent[1_099])
        }
    }

    @Test(
        "pending: the device's transactions of pending, unexpired requests, oldest first",
        arguments: TestDatabase.available)
    func pending(database: TestDatabase) async throws {
        try await database.withStore { store in
            let user = uniqueID("auth0|user")
            let device = Self.enrollment(userID: user)
            let otherDevice = Self.enrollment(userID: user)
            try await store.insertDeviceEnrollment(device)
            try await store.insertDeviceEnrollment(otherDevice)
            let now = storedTime()

            let older = Self.request(userID: user, createdAt: Self.at(now, -60))
            let newer = Self.request(userID: user, createdAt: Self.at(now, -30))
            let approved = Self.request(userID: user, createdAt: Self.at(now, -50))
            let denied = Self.request(userID: user, createdAt: Self.at(now, -40))
            let expired = Self.request(userID: user, createdAt: Self.at(now, -400), lifetime: 300)
            let expiringNow = Self.request(userID: user, createdAt: Self.at(now, -300), lifetime: 300)
            let otherDevicesOnly = Self.request(userID: user, createdAt: Self.at(now, -10))
            for request in [older, newer, approved, denied, expired, expiringNow, otherDevicesOnly] {
                try await Self.insert(request, into: store)
            }
            let decisionTime = Self.at(now, -5)
            for (request, approve) in [(approved, true), (denied, false)] {
                guard
                    case .decided = try await store.decideBackchannelRequest(
                        id: request.id, approved: approve, at: decisionTime)
                else {
                    Issue.record("the decision must be recorded")
                    return
                }
            }

            // Inserted newest first, request by request, as the CIBA flow does.
            let requests = [newer, approved, denied, expired, expiringNow, older]
            let mine = requests.map { Self.transaction($0, device) }
            for (request, transaction) in zip(requests, mine) {
                try await store.insertDeviceTransactions([transaction, Self.transaction(request, otherDevice)])
            }
            let (newerTransaction, expiringTransaction, olderTransaction) = (mine[0], mine[4], mine[5])
            let otherOnly = Self.transaction(otherDevicesOnly, otherDevice)
            try await store.insertDeviceTransactions([otherOnly])

            #expect(
                try await store.pendingDeviceTransactions(enrollmentID: device.id, now: now)
                    == [olderTransaction, newerTransaction])
            let others = try await store.pendingDeviceTransactions(enrollmentID: otherDevice.id, now: now)
            #expect(others.map(\.requestID) == [older.id, newer.id, otherDevicesOnly.id])
            #expect(others.last == otherOnly)

            // Just before the expiry of `expiringNow` it was still pending.
            let earlier = try await store.pendingDeviceTransactions(enrollmentID: device.id, now: Self.at(now, -0.001))
            #expect(earlier == [expiringTransaction, olderTransaction, newerTransaction])
            // Once they expire, none are.
            #expect(try await store.pendingDeviceTransactions(enrollmentID: device.id, now: newer.expiresAt) == [])
            #expect(try await store.pendingDeviceTransactions(enrollmentID: uniqueID("dev"), now: now) == [])
        }
    }

    @Test("purge deletes the transactions expired before the date", arguments: TestDatabase.available)
    func purge(database: TestDatabase) async throws {
        try await database.withStore { store in
            // Long ago, so that a purge elsewhere on a shared database meets none of the other tests' transactions.
            let start = Date(millisecondsSince1970: Int64.random(in: 946_684_800_000..<1_262_304_000_000))
            let device = Self.enrollment()
            try await store.insertDeviceEnrollment(device)
            let short = Self.request(userID: device.userID, createdAt: start, lifetime: 60)
            let longer = Self.request(userID: device.userID, createdAt: start, lifetime: 120)
            // Expiring long after any purge of a test: a purge elsewhere on a shared database never takes it.
            let live = Self.request(userID: device.userID, createdAt: start, lifetime: 200 * 365 * 86_400)
            let transactions = [short, longer, live].map { Self.transaction($0, device) }
            try await store.insertDeviceTransactions(transactions)

            // Expiring exactly at the date is not expired before it.
            let early = try await store.purgeBatch(.deviceTransactions, endedBefore: Self.at(start, 60), limit: 500)
            if database.isIsolated { #expect(early == 0) }
            #expect(try await store.deviceTransaction(id: transactions[0].id) == transactions[0])

            let purged = try await store.purgeBatch(.deviceTransactions, endedBefore: Self.at(start, 121), limit: 500)
            if database.isIsolated { #expect(purged == 2) }
            #expect(try await store.deviceTransaction(id: transactions[0].id) == nil)
            #expect(try await store.deviceTransaction(id: transactions[1].id) == nil)
            #expect(try await store.deviceTransaction(id: transactions[2].id) == transactions[2])
            if database.isIsolated {
                #expect(
                    try await store.purgeBatch(.deviceTransactions, endedBefore: Self.at(start, 121), limit: 500) == 0)
            }
        }
    }
}
