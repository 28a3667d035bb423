import ArgumentParser
import Foundation
import WardenCore
import WardenServer
import WardenStorage

/// `warden users import FILE [--upsert]` and `warden users export FILE` (SPEC §9 "Bulk users"): the bulk-users
/// jobs of the Management API run offline on the database, with progress on the terminal.
struct UsersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "users", abstract: "Create, import or export users offline.",
        subcommands: [Create.self, Import.self, Export.self])

    struct Import: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Import a users file: a JSON array of users (or one JSON user a line).",
            discussion: """
                An entry has the fields of /api/v2/users plus password_hash (bcrypt $2a$, $2b$ or $2y$) or \
                custom_password_hash {"algorithm": "bcrypt", "hash": {"value": …}}; hashes are stored as given. \
                A malformed entry, or one whose user exists without --upsert, is listed with its index (from 0) \
                and the others go in. Exits 1 when any entry was rejected.
                """)
        @OptionGroup var options: StoreOptions
        @Argument(help: "The users file.") var file: String
        @Flag(help: "Update a user that exists (same e-mail, else same user_id) instead of rejecting the entry.")
        var upsert = false

        /// Bytes read at a time: the file is never held whole.
        static let chunkBytes = 4 << 20
        /// Rejections printed one by one; beyond them only counted.
        static let printedRejections = 1_000

        func run() async throws {
            guard let handle = FileHandle(forReadingAtPath: file) else {
                throw ValidationError("Cannot read \(file)")
            }
            let size = (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? nil
            var printed = 0
            let (summary, elapsed) = try await UsersCommand.withStore(options, counting: "entries") { store, progress in
                var read = 0
                return try await UserImporter(store: store, clock: SystemClock(), upsert: upsert).run(
                    nextChunk: {
                        guard let data = try handle.read(upToCount: Self.chunkBytes), !data.isEmpty else { return nil }
                        read += data.count
                        return Array(data)
                    },
                    rejected: { rejections in
                        for rejection in rejections where printed < Self.printedRejections {
                            printed += 1
                            progress.interrupt(Self.describe(rejection))
                        }
                    },
                    progress: { summary in
                        progress.update(
                            count: summary.total,
                            detail: size.map { "\(read * 100 / max($0, 1))% of the file" } ?? "")
                    })
            }
            if summary.failed > printed {
                Terminal.stderr("… and \(summary.failed - printed) more rejected entries")
            }
            print(
                "imported \(file): \(summary.total) entries, \(summary.inserted) inserted, \(summary.updated) "
                    + "updated, \(summary.failed) failed in \(elapsed)")
            if summary.failed > 0 { throw ExitCode(1) }
        }

        static func describe(_ rejection: UserImportRejection) -> String {
            let reasons = rejection.errors.map { issue in
                issue.path.isEmpty ? "\(issue.code): \(issue.message)" : "\(issue.code) \(issue.path): \(issue.message)"
            }
            return "entry \(rejection.index): " + reasons.joined(separator: "; ")
        }
    }

    /// Runs `body` on the database of `options` with a progress line counting `noun`; whatever happens, the line
    /// is ended and the store shut down. Returns the body's result and how long it took, for the summary line.
    static func withStore<T>(
        _ options: StoreOptions, counting noun: String, _ body: (SQLStore, TerminalProgress) async throws -> T
    ) async throws -> (T, String) {
        let (store, _, _) = try await options.open()
        let progress = TerminalProgress(noun: noun)
        do {
            let result = try await body(store, progress)
            progress.end()
            try await store.shutdown()
            return (result, progress.elapsedDescription)
        } catch {
            progress.end()
            try? await store.shutdown()
            throw error
        }
    }

    struct Export: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Export every user to a file, one JSON user a line (the vendor's json export format).")
        @OptionGroup var options: StoreOptions
        @Argument(help: "The file to write (replaced if it exists).") var file: String

        static let usersPerPage = 1_000

        func run() async throws {
            guard FileManager.default.createFile(atPath: file, contents: nil),
                let handle = FileHandle(forWritingAtPath: file)
            else { throw ValidationError("Cannot write \(file)") }
            let (count, elapsed) = try await UsersCommand.withStore(options, counting: "users") { store, progress in
                var count = 0
                var after: String?
                while true {
                    let users = try await store.users(after: after, limit: Self.usersPerPage)
                    guard let last = users.last else { break }
                    try handle.write(contentsOf: Data(users.map { UserExportFormat.line($0.user) }.joined().utf8))
                    count += users.count
                    after = last.user.userID
                    progress.update(count: count, detail: "")
                }
                try handle.close()
                return count
            }
            print("exported \(count) users to \(file) in \(elapsed)")
        }
    }
}

/// Progress of a long command on stderr: one line rewritten in place on a terminal, a line every few seconds
/// otherwise (a log file or a pipe).
final class TerminalProgress {
    private let noun: String
    private let isTerminal = isatty(STDERR_FILENO) == 1
    private let start = ContinuousClock.now
    private var lastShown: ContinuousClock.Instant?
    private var lineShown = false

    /// Seconds between lines when stderr is not a terminal; a terminal line is redrawn at most 10 times a second.
    static let plainInterval: Duration = .seconds(5)
    static let terminalInterval: Duration = .milliseconds(100)

    init(noun: String) {
        self.noun = noun
    }

    var elapsed: Duration { ContinuousClock.now - start }

    var elapsedDescription: String {
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return String(format: "%.1f s", seconds)
    }

    func update(count: Int, detail: String) {
        let now = ContinuousClock.now
        if let lastShown, now - lastShown < (isTerminal ? Self.terminalInterval : Self.plainInterval) { return }
        lastShown = now
        let seconds = max(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18, 0.001)
        let rate = Int(Double(count) / seconds)
        let text = "\(count) \(noun), \(rate)/s" + (detail.isEmpty ? "" : ", \(detail)")
        if isTerminal {
            FileHandle.standardError.write(Data(("\r\u{1B}[2K" + text).utf8))
            lineShown = true
        } else {
            Terminal.stderr(text)
        }
    }

    /// Prints a line of its own (a rejected entry) above the progress line.
    func interrupt(_ line: String) {
        if isTerminal, lineShown {
            FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8))
            lineShown = false
            lastShown = nil
        }
        Terminal.stderr(line)
    }

    /// Ends the progress line so that what follows starts on a line of its own.
    func end() {
        if isTerminal, lineShown { FileHandle.standardError.write(Data("\n".utf8)) }
        lineShown = false
    }
}
