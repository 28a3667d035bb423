import Foundation

/// ISO 8601 and the SPEC §7.2 `d` timestamp format, without shared mutable formatters.
enum ISO8601 {
    /// Parses `2024-05-01T12:00:00Z` or `2024-05-01T12:00:00.123Z` (any offset).
    static func date(from string: String) -> Date? {
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = fractional.date(from: string) { return date }
        let plain = ISO8601DateFormatter()
        plain.formatOptions = [.withInternetDateTime]
        return plain.date(from: string)
    }

    /// Formats a date as `yyyy-MM-dd'T'HH:mm:ss.SSS'Z'` in UTC (SPEC §7.2 `d`).
    static func string(from date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: date)
    }
}
