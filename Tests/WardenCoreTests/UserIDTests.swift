import Foundation
import Testing
import WardenCore

/// `User.generatedID(now:)`: the reference platform's `auth0|` + ObjectId (SPEC §9 `/users`).
@Suite struct UserIDTests {
    /// The 4 leading bytes are the seconds; ids made one after another sort one after another, within a second and
    /// across seconds; none repeats; the 5 bytes after the time are the same in one process.
    @Test func objectIDsSortInTheOrderTheyWereMade() {
        let start = Date(timeIntervalSince1970: 1_795_635_854.25)
        let times = (0..<3_000).map { start.addingTimeInterval(Double($0 / 1_000)) }
        let ids = times.map { User.generatedID(now: $0) }
        let digits = ids.map { $0.dropFirst("auth0|".count) }
        #expect(ids.allSatisfy { $0.hasPrefix("auth0|") })
        #expect(digits.allSatisfy { $0.count == 24 && $0.allSatisfy { "0123456789abcdef".contains($0) } })
        #expect(digits[0].hasPrefix(String(1_795_635_854, radix: 16)), "\(digits[0])")
        #expect(digits[2_999].hasPrefix(String(1_795_635_856, radix: 16)), "\(digits[2_999])")
        #expect(Set(digits.map { $0.dropFirst(8).prefix(10) }).count == 1)
        #expect(Set(ids).count == ids.count)
        // The counter wraps at 2^24 once in a long while; away from that, the order is strict.
        let ascending = zip(ids, ids.dropFirst()).filter { $0 < $1 }.count
        #expect(ascending >= ids.count - 2)
    }
}
