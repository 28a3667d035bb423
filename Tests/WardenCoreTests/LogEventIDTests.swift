import Foundation
import Testing
import WardenCore
import WardenWire

@Suite struct LogEventIDTests {
    /// Later events get ids that sort later (byte order, as the database's index compares them); ids of the
    /// same millisecond differ; every id is 24 characters of [0-9a-zA-Z].
    @Test func idsSortByTimeAndAreUnique() {
        // Mid-millisecond instants, one millisecond apart, with a day's jump every 100.
        let first: Int64 = 1_795_635_854_937
        let milliseconds: [Int64] = (0..<500).map { (index: Int) -> Int64 in
            first + Int64(index) + Int64(index / 100) * 86_400_000
        }
        let ids: [String] = milliseconds.map { (value: Int64) -> String in
            LogEvent.makeID(at: Date(timeIntervalSince1970: (Double(value) + 0.5) / 1000))
        }
        let ordered = zip(ids, ids.dropFirst()).allSatisfy { (earlier: String, later: String) -> Bool in
            Array(earlier.utf8).lexicographicallyPrecedes(Array(later.utf8))
        }
        #expect(ordered)
        #expect(ids.allSatisfy { $0.count == 24 && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } })
        #expect(ids[0].hasPrefix("01a2143cbe59"), "\(ids[0])")
        let start = Date(timeIntervalSince1970: 1_795_635_854.9375)
        let sameInstant = (0..<1000).map { _ in LogEvent.makeID(at: start) }
        #expect(Set(sameInstant).count == 1000)
        #expect(LogEvent(date: start, type: .clientCredentialsSucceeded).logID.hasPrefix("01a2143cbe59"))
    }
}
