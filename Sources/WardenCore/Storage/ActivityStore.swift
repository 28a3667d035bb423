public import struct Foundation.Date

/// Counts of log events over time, for the admin console's charts (SPEC §14 "overview").
public protocol ActivityStore: Sendable {
    /// How many events of each of `types` happened in each hour from `since` on: one entry per hour and type
    /// that had any, the hour given by its start (a whole hour since 1970, UTC).
    func hourlyEventCounts(of types: [LogEventType], since: Date) async throws -> [HourlyEventCount]
}

/// One hour's count of one event type.
public struct HourlyEventCount: Sendable, Hashable {
    public var hour: Date
    public var type: LogEventType
    public var count: Int

    public init(hour: Date, type: LogEventType, count: Int) {
        self.hour = hour
        self.type = type
        self.count = count
    }
}
