public import struct Foundation.Date

/// A UTC time as an RFC 3339 §5.6 `date-time` with milliseconds: `2026-11-25T19:44:14.937Z`.
///
/// Written with integer arithmetic (the days-to-civil algorithm of Howard Hinnant's "chrono-compatible
/// low-level date algorithms"), for the log line of every event: Foundation's formatters reach for ICU's
/// calendar and time-zone data, which the first log line then maps into the process (about 5 MB of an idle
/// server's RSS).
public enum RFC3339Timestamp {
    /// `date` truncated to the millisecond, in UTC. Years outside 0001–9999 are not representable in RFC 3339;
    /// they are clamped to its range.
    public static func string(from date: Date) -> String {
        string(millisecondsSince1970: Int64((date.timeIntervalSince1970 * 1000).rounded(.down)))
    }

    /// The time `milliseconds` after the Unix epoch, in UTC, clamped to RFC 3339's years as above: a stored time
    /// (`Date.millisecondsSince1970`) written without a second trip through floating point.
    public static func string(millisecondsSince1970 milliseconds: Int64) -> String {
        let clamped = min(max(milliseconds, minimum), maximum)
        let (days, millisecondOfDay) = clamped.quotientAndRemainder(dividingBy: 86_400_000)
        let (day, milli) = millisecondOfDay < 0 ? (days - 1, millisecondOfDay + 86_400_000) : (days, millisecondOfDay)
        let (year, month, dayOfMonth) = civil(daysSinceEpoch: day)
        let seconds = milli / 1000
        var text = ""
        text.reserveCapacity(24)
        append(year, width: 4, to: &text)
        text.append("-")
        append(month, width: 2, to: &text)
        text.append("-")
        append(dayOfMonth, width: 2, to: &text)
        text.append("T")
        append(seconds / 3600, width: 2, to: &text)
        text.append(":")
        append(seconds / 60 % 60, width: 2, to: &text)
        text.append(":")
        append(seconds % 60, width: 2, to: &text)
        text.append(".")
        append(milli % 1000, width: 3, to: &text)
        text.append("Z")
        return text
    }

    /// 0001-01-01T00:00:00.000Z and 9999-12-31T23:59:59.999Z in milliseconds since 1970.
    private static let minimum: Int64 = -62_135_596_800_000
    private static let maximum: Int64 = 253_402_300_799_999

    /// The proleptic Gregorian (year, month, day) of a day count from 1970-01-01 (also the `Date` header's,
    /// RFC 9110 §5.6.7).
    package static func civil(daysSinceEpoch: Int64) -> (Int64, Int64, Int64) {
        let z = daysSinceEpoch + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func append(_ value: Int64, width: Int, to text: inout String) {
        let digits = String(value)
        text.append(String(repeating: "0", count: max(0, width - digits.count)))
        text.append(digits)
    }
}
