import Foundation
import Testing
import WardenCore
import WardenWire

/// SPEC §11: request values copied into logs are cut to at most 256 characters, a marker included.
@Suite("LogEvent truncation")
struct LogEventTruncationTests {
    @Test func valuesUpTo256AreKeptLongerOnesCutWithTheMarker() {
        let exact = String(repeating: "a", count: 256)
        #expect(LogEvent.truncate(exact) == exact)
        let cut = LogEvent.truncate(exact + "b")
        #expect(cut.unicodeScalars.count == 256)
        #expect(cut.hasSuffix(LogEvent.truncationMarker))
        #expect(cut.hasPrefix(String(repeating: "a", count: 256 - LogEvent.truncationMarker.unicodeScalars.count)))
        let emoji = LogEvent.truncate(String(repeating: "👩‍💻", count: 200))
        #expect(emoji.unicodeScalars.count <= 256)
    }

    @Test func everyStringFieldAndDetailIsCut() {
        let long = String(repeating: "x", count: 60_000)
        let event = LogEvent(
            logID: "log1", date: Date(), type: .clientCredentialsFailed, description: long, clientID: long,
            clientName: long, ip: long, userAgent: long, userID: long, userName: long, audience: long, scope: long,
            details: ["body": .string(long), long: .array([.string(long), .object(["k": .string(long)])]), "n": 1]
        ).truncated
        let values = [
            event.description, event.clientID, event.clientName, event.ip, event.userAgent, event.userID,
            event.userName, event.audience, event.scope,
        ]
        #expect(
            values.allSatisfy { $0?.unicodeScalars.count == 256 && $0?.hasSuffix(LogEvent.truncationMarker) == true })
        #expect(event.details["body"]?.stringValue?.count == 256)
        #expect(event.details["n"] == 1)
        let cutKey = LogEvent.truncate(long)
        #expect(event.details[cutKey]?[0]?.stringValue?.count == 256)
        #expect(event.details[cutKey]?[1]?["k"]?.stringValue?.count == 256)
        #expect(event.details.serializedCount < 2_000)
        #expect(event.logID == "log1")
    }
}

extension [String: JSONValue] {
    fileprivate var serializedCount: Int { JSONValue.object(self).serialized.count }
}
