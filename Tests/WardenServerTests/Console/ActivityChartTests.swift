import Foundation
import Testing
import WardenCore
import WardenWire

@testable import WardenServer

/// The overview's server-drawn charts (SPEC §14): counts land in their hour of the last 24, series add up their
/// event types, and the axis reads in round numbers.
@Suite("console: activity charts")
struct ActivityChartTests {
    @Test(arguments: [(0, 4), (3, 4), (4, 4), (5, 10), (11, 20), (20, 20), (21, 40), (399, 400), (401, 1000)])
    func theAxisTopIsARoundNumber(value: Int, top: Int) {
        #expect(ActivityChart.niceMaximum(value) == top)
    }

    @Test func countsLandInTheirSeriesAndOnlyTheLast24HoursCount() {
        let now = Date(timeIntervalSince1970: 1_795_722_444)  // 19:47 UTC
        let thisHour = Date(timeIntervalSince1970: floor(now.timeIntervalSince1970 / 3600) * 3600)
        let counts = [
            HourlyEventCount(hour: thisHour, type: .loginSuccess, count: 3),
            HourlyEventCount(hour: thisHour.addingTimeInterval(-3600), type: .wrongPassword, count: 2),
            HourlyEventCount(hour: thisHour.addingTimeInterval(-3600), type: .unknownUser, count: 1),
            HourlyEventCount(hour: thisHour.addingTimeInterval(-23 * 3600), type: .accountLocked, count: 1),
            HourlyEventCount(hour: thisHour.addingTimeInterval(-24 * 3600), type: .loginSuccess, count: 50),
            HourlyEventCount(hour: thisHour, type: .clientCredentialsSucceeded, count: 9),
        ]
        let chart = ActivityChart.signIns.render(counts, now: now)
        #expect(chart.legend.map(\.total) == [3, 3, 1])
        #expect(chart.total == 7)
        #expect(chart.svg.contains("Sign-ins, last 24 hours by hour: 3 succeeded, 3 failed, 1 locked"))
        #expect(chart.svg.components(separatedBy: "<rect ").count - 1 == 3, "one bar piece per series and hour")
        #expect(chart.svg.contains(">19:00</text>") && chart.svg.contains(">20:00</text>"))
    }
}
