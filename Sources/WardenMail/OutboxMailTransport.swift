public import Foundation
import NIOPosix

/// The mail transport of a Warden without an SMTP server (SPEC §1: `--smtp-url` unset): every message becomes
/// one `.eml` file (an RFC 5322 message, as ``MailMessage/rendered(date:messageID:)`` writes it, CRLF line
/// endings) in the outbox folder, `warden-mail/` by default.
///
/// - File names sort by time: `20260213T093000.123Z-1a2b3c4d5e6f7a8b.eml` (UTC time, then 64 random bits, so
///   two nodes or two messages in the same millisecond never collide).
/// - The folder is created (with its parents, mode 0700) when missing; files are mode 0600: an approval mail
///   carries a link that decides a request (SPEC §6.4).
/// - A reader never sees half a message: the file is written under a hidden temporary name (`.…eml.tmp`) in
///   the same folder, flushed, then renamed, which POSIX makes atomic within one file system.
/// - The file work runs on NIO's blocking thread pool (`NIOThreadPool.singleton`, as bcrypt does), never on
///   Swift's cooperative pool.
public struct OutboxMailTransport: MailTransport {
    public let directory: URL
    private let now: @Sendable () -> Date

    /// - Parameters:
    ///   - directory: the outbox folder; a relative path is resolved against the working directory.
    ///   - now: the clock for the `Date` field and the file name.
    public init(directory: URL, now: @escaping @Sendable () -> Date = { Date() }) {
        self.directory = directory
        self.now = now
    }

    /// An outbox at a file-system path (`--smtp-url` unset: `warden-mail`).
    public init(path: String, now: @escaping @Sendable () -> Date = { Date() }) {
        self.init(directory: URL(fileURLWithPath: path, isDirectory: true), now: now)
    }

    public func send(_ message: MailMessage) async throws {
        _ = try await write(message)
    }

    /// Writes `message` and returns the file it is in.
    public func write(_ message: MailMessage) async throws -> URL {
        let date = now()
        let rendered = message.rendered(date: date, messageID: MailMessage.makeMessageID(domain: message.from.domain))
        let directory = directory
        let name = Self.fileName(date: date)
        return try await NIOThreadPool.singleton.runIfActive {
            try Self.writeAtomically(Data(rendered.utf8), directory: directory, name: name)
        }
    }

    /// `yyyyMMdd'T'HHmmss.SSS'Z'-<16 hex>.eml`, in UTC.
    static func fileName(date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second, .nanosecond], from: date)
        func pad(_ value: Int?, _ width: Int) -> String {
            let digits = String(value ?? 0)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        let time =
            pad(parts.year, 4) + pad(parts.month, 2) + pad(parts.day, 2) + "T" + pad(parts.hour, 2)
            + pad(parts.minute, 2) + pad(parts.second, 2) + "." + pad((parts.nanosecond ?? 0) / 1_000_000, 3) + "Z"
        let random = String(UInt64.random(in: 0...UInt64.max), radix: 16)
        return time + "-" + String(repeating: "0", count: 16 - random.count) + random + ".eml"
    }

    /// Creates `directory` when missing, writes `.name.tmp`, flushes it to disk, renames it to `name`.
    private static func writeAtomically(_ data: Data, directory: URL, name: String) throws -> URL {
        let fileManager = FileManager.default
        try fileManager.createDirectory(
            at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let temporary = directory.appendingPathComponent("." + name + ".tmp")
        let destination = directory.appendingPathComponent(name)
        guard fileManager.createFile(atPath: temporary.path, contents: nil, attributes: [.posixPermissions: 0o600])
        else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: temporary.path])
        }
        do {
            let handle = try FileHandle(forWritingTo: temporary)
            do {
                try handle.write(contentsOf: data)
                try handle.synchronize()
            } catch {
                try? handle.close()
                throw error
            }
            try handle.close()
            try fileManager.moveItem(at: temporary, to: destination)
        } catch {
            try? fileManager.removeItem(at: temporary)
            throw error
        }
        return destination
    }
}
