import Foundation
import Synchronization
import Testing
import WardenWire

@testable import WardenMail

/// The outbox folder used when no SMTP server is configured (SPEC §1).
@Suite("Mail: outbox")
struct OutboxMailTransportTests {
    /// A clock that moves 1.5 s on each reading.
    final class SteppingClock: Sendable {
        private let current = Mutex(Date(timeIntervalSince1970: 1_770_975_000.25))
        func now() -> Date {
            current.withLock { date in
                defer { date += 1.5 }
                return date
            }
        }
    }

    @Test func writesOneParsableFilePerMessageInAMissingFolder() async throws {
        let root = try ExternalTools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let folder = root.appendingPathComponent("nested/warden-mail")
        let clock = SteppingClock()
        let outbox = OutboxMailTransport(directory: folder, now: { clock.now() })
        let message = MailMessage(
            from: try MailAddress("no-reply@warden.test", displayName: "Warden"),
            to: [try MailAddress("alice@example.com")], subject: "Bestätigen Sie die Überweisung",
            text: "Hello Alice,\n.approve here\n", html: "<p>Hello Alice</p>")

        let first = try await outbox.write(message)
        try await outbox.send(message)

        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(names.count == 2, "no temporary files left behind: \(names)")
        #expect(names.first == first.lastPathComponent)
        #expect(names[0].hasPrefix("20260213T093000.250Z-"))
        #expect(names[1].hasPrefix("20260213T093001.750Z-"))
        for name in names {
            #expect(name.wholeMatch(of: /\d{8}T\d{6}\.\d{3}Z-[0-9a-f]{16}\.eml/) != nil, "\(name)")
        }

        let raw = try String(contentsOf: first, encoding: .utf8)
        let mail = try ParsedMail(raw)
        #expect(try mail.decodedHeader("Subject") == "Bestätigen Sie die Überweisung")
        #expect(mail.header("Date") == "Fri, 13 Feb 2026 09:30:00 +0000")
        #expect(mail.header("Message-ID")?.hasSuffix("@warden.test>") == true)
        let parts = try mail.parts()
        #expect(parts.map(\.decodedBody) == ["Hello Alice,\r\n.approve here\r\n", "<p>Hello Alice</p>"])

        let attributes = try FileManager.default.attributesOfItem(atPath: first.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    }

    @Test func fileNamesSortByTimeAndNeverCollide() {
        let date = Date(timeIntervalSince1970: 1_770_975_000.5)
        let names = (0..<200).map { _ in OutboxMailTransport.fileName(date: date) }
        #expect(Set(names).count == names.count)
        #expect(names.allSatisfy { $0.hasPrefix("20260213T093000.500Z-") })
        #expect(
            OutboxMailTransport.fileName(date: Date(timeIntervalSince1970: 1_770_975_001.25))
                > OutboxMailTransport.fileName(date: date))
    }
}
