import Foundation
import Testing
import WardenCore
import WardenWire

@Suite struct RFC3339TimestampTests {
    @Test(arguments: [
        (0.0, "1970-01-01T00:00:00.000Z"),
        (-0.0005, "1969-12-31T23:59:59.999Z"),
        (951_782_400.5, "2000-02-29T00:00:00.500Z"),
        (1_795_635_854.9379, "2026-11-25T19:44:14.937Z"),
        (4_107_542_399.999, "2100-02-28T23:59:59.999Z"),
        (-62_135_596_800, "0001-01-01T00:00:00.000Z"),
        (-62_135_596_801, "0001-01-01T00:00:00.000Z"),
        (253_402_300_800, "9999-12-31T23:59:59.999Z"),
    ])
    func knownInstants(seconds: Double, expected: String) {
        #expect(RFC3339Timestamp.string(from: Date(timeIntervalSince1970: seconds)) == expected)
    }

    /// Agrees with Foundation's ISO 8601 formatter over dates spread across four centuries, leap days included.
    @Test func agreesWithFoundation() {
        let style = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let milliseconds = Int64.random(in: -5_000_000_000_000...8_000_000_000_000, using: &generator)
            // Mid-millisecond, so that neither side depends on how a binary fraction rounds.
            let date = Date(timeIntervalSince1970: (Double(milliseconds) + 0.5) / 1000)
            #expect(RFC3339Timestamp.string(from: date) == date.formatted(style), "\(milliseconds) ms")
        }
    }

    /// A stored time (whole milliseconds) reads as those milliseconds, including where `ms / 1000 * 1000` is not
    /// exact in binary floating point; the Management API writes every stored time this way (SPEC conventions).
    @Test func storedMilliseconds() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let milliseconds = Int64.random(in: 0...8_000_000_000_000, using: &generator)
            let text = RFC3339Timestamp.string(millisecondsSince1970: milliseconds)
            let fraction = String(milliseconds % 1000)
            #expect(text.hasSuffix("." + String(repeating: "0", count: 3 - fraction.count) + fraction + "Z"), "\(text)")
            let seconds = Date(timeIntervalSince1970: Double(milliseconds / 1000))
            #expect(text.dropLast(5) == seconds.formatted(.iso8601).dropLast(), "\(milliseconds) ms")
        }
        #expect(RFC3339Timestamp.string(millisecondsSince1970: 1_795_635_854_937) == "2026-11-25T19:44:14.937Z")
    }
}
