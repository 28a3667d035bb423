import Synchronization

public import struct Foundation.Date

/// The source of "now" for every expiry decision, injectable so tests can move time.
public protocol WardenClock: Sendable {
    func now() -> Date
}

/// The wall clock.
public struct SystemClock: WardenClock {
    public init() {}
    public func now() -> Date { Date() }
}

/// A clock that tests move by hand.
public final class ManualClock: WardenClock {
    private let current: Mutex<Date>

    public init(_ start: Date = Date()) {
        current = Mutex(start)
    }

    public func now() -> Date { current.withLock { $0 } }

    public func advance(by seconds: Double) {
        current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }
}
