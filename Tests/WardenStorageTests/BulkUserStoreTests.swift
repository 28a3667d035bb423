import Foundation
import Testing
import WardenCore
import WardenWire

@testable import WardenStorage

/// SPEC §9 "Bulk users": the batch insert of an import, the pages of an export, and the job table.
@Suite("Bulk users: batch insert, export pages, jobs")
struct BulkUserStoreTests {
    private static let hash = "$2b$04$abcdefghijklmnopqrstuu5Ue9dGGsQ5dRb8Ct2Ee3t4n6pmF9YBe"

    private static func record(email: String? = nil, id: String? = nil, name: String = "Imported") -> UserRecord {
        var user = User(
            userID: id ?? uniqueID("auth0|bulk"), email: email ?? "\(uniqueID("bulk"))@example.com",
            createdAt: storedTime())
        user.name = name
        user.userMetadata = ["lang": "de"]
        user.appMetadata = ["plan": "gold", "tier": 3]
        return UserRecord(user: user, passwordHash: hash)
    }

    @Test(
        "A batch larger than one statement goes in whole, hashes and metadata as given",
        arguments: TestDatabase.available)
    func batchInsert(database: TestDatabase) async throws {
        try await database.withStore { store in
            var records = (0..<(SQLStore.usersPerInsert + 7)).map { _ in Self.record() }
            // Text the JSON array carries escaped, read back as written on both engines (PostgreSQL as jsonb).
            records[0].user.name = "Zoë \"quoted\" \\ back\nslash\t日本 🙂 \u{7F}"
            records[0].user.nickname = String(repeating: "ü", count: 300)
            records[0].user.picture = nil
            records[0].user.emailVerified = true
            records[0].user.userMetadata = [
                "nested": ["list": [1.5, "two", nil, true]], "empty": [:], "n": 12_345_678_901,
            ]
            let outcomes = try await store.insertUsers(records, upsert: false)
            #expect(outcomes == Array(repeating: .inserted, count: records.count))
            for record in [records.first!, records.last!] {
                #expect(try await store.user(id: record.user.userID) == record)
            }
        }
    }

    @Test(
        "Without upsert, an existing id or e-mail and a repeat within the batch are duplicates; the rest go in",
        arguments: TestDatabase.available)
    func duplicates(database: TestDatabase) async throws {
        try await database.withStore { store in
            let existing = Self.record()
            try await store.insertUser(existing)
            let fresh = Self.record()
            let sameEmail = Self.record(email: existing.user.email!.uppercased())
            let sameID = Self.record(id: existing.user.userID)
            let repeated = Self.record(email: fresh.user.email)
            let outcomes = try await store.insertUsers([fresh, sameEmail, sameID, repeated], upsert: false)
            #expect(outcomes == [.inserted, .duplicate, .duplicate, .duplicate])
            #expect(try await store.user(id: existing.user.userID) == existing)
            #expect(try await store.user(id: fresh.user.userID) == fresh)
            #expect(try await store.user(id: sameEmail.user.userID) == nil)
        }
    }

    @Test(
        "With upsert, the user with that e-mail (else that id) takes the profile; id, creation and logins stay",
        arguments: TestDatabase.available)
    func upsert(database: TestDatabase) async throws {
        try await database.withStore { store in
            var existing = Self.record()
            existing.user.loginsCount = 4
            try await store.insertUser(existing)
            var byEmail = Self.record(email: existing.user.email, name: "Renamed")
            byEmail.passwordHash = nil
            var byID = Self.record(id: uniqueID("auth0|other"))
            try await store.insertUser(byID)
            byID.user.name = "Also renamed"
            byID.user.email = "\(uniqueID("moved"))@example.com"
            let outcomes = try await store.insertUsers([byEmail, byID], upsert: true)
            #expect(outcomes == [.updated, .updated])

            let updated = try #require(try await store.user(id: existing.user.userID))
            #expect(updated.user.name == "Renamed")
            #expect(updated.user.loginsCount == 4)
            #expect(updated.user.createdAt == existing.user.createdAt)
            #expect(updated.passwordHash == Self.hash, "a record without a hash keeps the stored one")
            #expect(try await store.user(id: byEmail.user.userID) == nil)
            #expect(try await store.user(id: byID.user.userID)?.user.email == byID.user.email)
        }
    }

    @Test("Export pages follow user_id order without gaps or repeats", arguments: TestDatabase.available)
    func exportPages(database: TestDatabase) async throws {
        try await database.withStore { store in
            let prefix = uniqueID("auth0|page")
            let records = (0..<5).map { Self.record(id: "\(prefix)-\($0)") }
            _ = try await store.insertUsers(records.reversed(), upsert: false)
            var seen: [String] = []
            var after: String? = prefix
            while true {
                let page = try await store.users(after: after, limit: 2)
                let ours = page.map(\.user.userID).filter { $0.hasPrefix(prefix) }
                guard let last = page.last, !ours.isEmpty else { break }
                seen += ours
                after = last.user.userID
            }
            #expect(seen == records.map(\.user.userID))
        }
    }

    @Test(
        "finished jobs past the retention go with their errors and export parts, in batches of at most the limit",
        arguments: TestDatabase.available)
    func purgeOfFinishedJobs(database: TestDatabase) async throws {
        try await database.withStore { store in
            func job(_ status: UserJob.Status, updated offset: Double) async throws -> UserJob {
                var job = UserJob(
                    type: .usersExport, connectionID: Connection.databaseID, createdAt: storedTime(offset))
                job.status = status
                try await store.insertUserJob(job)
                for sequence in 0..<4 { try await store.appendUserExportPart(jobID: job.id, sequence: sequence, "{}") }
                try await store.appendUserJobErrors(
                    jobID: job.id,
                    [
                        UserImportRejection(
                            index: 0, user: [:], errors: [UserImportIssue(code: .invalidType, message: "x", path: "")])
                    ])
                return job
            }
            let old = try await job(.completed, updated: -7200)
            let oldFailed = try await job(.failed, updated: -7200)
            let running = try await job(.processing, updated: -7200)
            let recent = try await job(.completed, updated: 0)
            let cutoff = storedTime(-3600)
            var batches: [Int] = []
            while true {
                let deleted = try await store.purgeBatch(.userJobs, endedBefore: cutoff, limit: 3)
                batches.append(deleted)
                guard deleted == 3 else { break }
            }
            // 2 jobs × (4 parts + 1 error + the job) = 12 rows, 3 a batch
            #expect(batches.allSatisfy { $0 <= 3 } && batches.reduce(0, +) == 12, "\(batches)")
            for gone in [old, oldFailed] {
                #expect(try await store.userJob(id: gone.id) == nil)
                #expect(try await store.userJobErrors(jobID: gone.id).isEmpty)
                #expect(try await store.userExportParts(jobID: gone.id, after: nil, limit: 10).isEmpty)
            }
            for kept in [running, recent] {
                #expect(try await store.userJob(id: kept.id) != nil)
                #expect(try await store.userExportParts(jobID: kept.id, after: nil, limit: 10).count == 4)
            }
        }
    }

    @Test(
        "Jobs: insert, progress, rejected entries by index, export parts, interrupted jobs fail",
        arguments: TestDatabase.available)
    func jobs(database: TestDatabase) async throws {
        try await database.withStore { store in
            var job = UserJob(
                type: .usersImport, connectionID: Connection.databaseID, upsert: true, createdAt: storedTime(-120))
            try await store.insertUserJob(job)
            #expect(try await store.userJob(id: job.id) == job)
            await #expect(throws: StorageError.conflict("A job with this id already exists")) {
                try await store.insertUserJob(job)
            }

            job.status = .processing
            job.summary = UserImportSummary(inserted: 3, updated: 1, failed: 2, total: 6)
            job.updatedAt = storedTime(-90)
            try await store.updateUserJob(job)
            #expect(try await store.userJob(id: job.id) == job)

            let rejections = [
                UserImportRejection(
                    index: 4, user: ["email": "nope"],
                    errors: [UserImportIssue(code: .invalidFormat, message: "Not an e-mail address", path: "email")]),
                UserImportRejection(
                    index: 1, user: .string("{oops"),
                    errors: [UserImportIssue(code: .invalidType, message: "Not JSON", path: "")]),
            ]
            try await store.appendUserJobErrors(jobID: job.id, rejections)
            #expect(try await store.userJobErrors(jobID: job.id) == rejections.reversed())

            var export = UserJob(
                type: .usersExport, connectionID: Connection.databaseID, format: "json", createdAt: storedTime())
            try await store.insertUserJob(export)
            for sequence in 0..<3 {
                try await store.appendUserExportPart(jobID: export.id, sequence: sequence, "\(sequence)\n")
            }
            #expect(
                try await store.userExportParts(jobID: export.id, after: 0, limit: 5).map(\.text) == ["1\n", "2\n"])

            let failed = try await store.failInterruptedUserJobs(before: storedTime(-60), now: storedTime())
            #expect(!database.isIsolated || failed == 1)
            #expect(try await store.userJob(id: job.id)?.status == .failed)
            #expect(try await store.userJob(id: export.id)?.status == .pending, "a job that moved recently is alive")
            export.status = .completed
            try await store.updateUserJob(export)
            #expect(try await store.userJob(id: export.id)?.status == .completed)
        }
    }
}
