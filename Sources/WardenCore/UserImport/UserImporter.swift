import WardenWire

/// Imports a users file into a ``UserStore`` (SPEC §9 "Bulk users"): the file streams in by chunks, its entries
/// are parsed and checked ``batchSize`` at a time, and each batch goes in with one ``UserStore/insertUsers(_:upsert:)``
/// call while the next one is parsed. A malformed entry, or one whose user exists without `upsert`, is reported
/// with its index (from 0) and reasons; the others go in. Both the job of `POST /api/v2/jobs/users-imports` and
/// `warden users import` run it.
public struct UserImporter: Sendable {
    /// Entries per batch: one transaction of multi-row `INSERT`s each. 5,000 rather than 1,000: a commit writes every
    /// index page it touched, and bigger batches touch each page more times per write (issue 16).
    public static let defaultBatchSize = 5_000

    let store: any UserStore
    let clock: any WardenClock
    let upsert: Bool
    let batchSize: Int

    public init(store: any UserStore, clock: any WardenClock, upsert: Bool, batchSize: Int = defaultBatchSize) {
        self.store = store
        self.clock = clock
        self.upsert = upsert
        self.batchSize = batchSize
    }

    /// Reads chunks from `nextChunk` until it returns `nil` and imports every entry.
    ///
    /// - Parameters:
    ///   - rejected: Receives each batch's rejected entries, in index order.
    ///   - progress: Receives the summary after each batch.
    /// - Returns: The final summary.
    /// - Throws: ``UsersFileSplitter/FormatError`` when the file is not a users file (entries of the batches
    ///   before have gone in), or what the store or a callback throws.
    public func run(
        nextChunk: () throws -> [UInt8]?,
        rejected: ([UserImportRejection]) async throws -> Void,
        progress: (UserImportSummary) async throws -> Void
    ) async throws -> UserImportSummary {
        try await store.withBulkUserWrites {
            try await importEntries(nextChunk: nextChunk, rejected: rejected, progress: progress)
        }
    }

    /// ``run(nextChunk:rejected:progress:)`` inside the store's bulk writes.
    private func importEntries(
        nextChunk: () throws -> [UInt8]?,
        rejected: ([UserImportRejection]) async throws -> Void,
        progress: (UserImportSummary) async throws -> Void
    ) async throws -> UserImportSummary {
        var splitter = UsersFileSplitter()
        var entries: [[UInt8]] = []
        var summary = UserImportSummary()
        var inFlight: InFlight?
        func submit(_ batch: ArraySlice<[UInt8]>) async throws {
            let parsed = parse(batch, firstIndex: summary.total)
            summary.total += batch.count
            summary.failed += parsed.rejections.count
            if let previous = inFlight { try await finish(previous, &summary, rejected) }
            if !parsed.rejections.isEmpty { try await rejected(parsed.rejections) }
            let store = store
            let upsert = upsert
            let records = parsed.records.map(\.record)
            inFlight = InFlight(
                entries: parsed.records, task: Task { try await store.insertUsers(records, upsert: upsert) })
            try await progress(summary)
        }
        do {
            while let chunk = try nextChunk() {
                try splitter.feed(chunk) { entries.append($0) }
                var start = 0
                while entries.count - start >= batchSize {
                    try await submit(entries[start..<start + batchSize])
                    start += batchSize
                }
                entries.removeFirst(start)
            }
            try splitter.finish()
            if !entries.isEmpty { try await submit(entries[...]) }
        } catch {
            if let inFlight { _ = try? await inFlight.task.value }
            throw error
        }
        if let inFlight { try await finish(inFlight, &summary, rejected) }
        try await progress(summary)
        return summary
    }

    /// A batch on its way into the store, with the entries it came from.
    private struct InFlight {
        let entries: [(index: Int, entry: JSONValue, record: UserRecord)]
        let task: Task<[BulkUserOutcome], any Error>
    }

    /// Counts what the store did with a batch; duplicates are rejections.
    private func finish(
        _ batch: InFlight, _ summary: inout UserImportSummary,
        _ rejected: ([UserImportRejection]) async throws -> Void
    ) async throws {
        let outcomes = try await batch.task.value
        var duplicates: [UserImportRejection] = []
        for (entry, outcome) in zip(batch.entries, outcomes) {
            switch outcome {
            case .inserted: summary.inserted += 1
            case .updated: summary.updated += 1
            case .duplicate:
                summary.failed += 1
                duplicates.append(
                    UserImportRejection(
                        index: entry.index, user: entry.entry,
                        errors: [
                            UserImportIssue(
                                code: .duplicatedUser, message: "The user already exists", path: "user_id")
                        ]))
            }
        }
        if !duplicates.isEmpty { try await rejected(duplicates) }
    }

    /// Parses and checks one batch of entries.
    private func parse(_ batch: ArraySlice<[UInt8]>, firstIndex: Int) -> (
        records: [(index: Int, entry: JSONValue, record: UserRecord)], rejections: [UserImportRejection]
    ) {
        var records: [(index: Int, entry: JSONValue, record: UserRecord)] = []
        var rejections: [UserImportRejection] = []
        records.reserveCapacity(batch.count)
        let now = clock.now()
        for (offset, bytes) in batch.enumerated() {
            let index = firstIndex + offset
            let entry: JSONValue
            do {
                entry = try JSONBytesParser.parse(bytes)
            } catch {
                let text = String(decoding: bytes.prefix(1_000), as: UTF8.self)
                rejections.append(
                    UserImportRejection(
                        index: index, user: .string(text),
                        errors: [
                            UserImportIssue(
                                code: .invalidType, message: "Not JSON: \(error.reason) at byte \(error.offset)",
                                path: "")
                        ]))
                continue
            }
            switch UserImportEntry.record(from: entry, now: now, newID: { User.generatedID(now: now) }) {
            case .valid(let record): records.append((index, entry, record))
            case .invalid(let issues): rejections.append(UserImportRejection(index: index, user: entry, errors: issues))
            }
        }
        return (records, rejections)
    }
}
