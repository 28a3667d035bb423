public import struct Foundation.Date

extension Date {
    /// The instant `milliseconds` after the Unix epoch: how every time column is stored (`BIGINT`).
    public init(millisecondsSince1970 milliseconds: Int64) {
        self.init(timeIntervalSince1970: Double(milliseconds) / 1000)
    }

    /// Milliseconds since the Unix epoch, rounded to the nearest one.
    public var millisecondsSince1970: Int64 {
        Int64((timeIntervalSince1970 * 1000).rounded())
    }
}
