import Foundation
import Synchronization
import WardenCore

/// At most `limit` attempts per `window` for one key on this node, counted atomically: client registrations per
/// IP (SPEC §13: 20 per minute), sign-ups per IP (SPEC §15.1: 10 per hour), account e-mails per IP and per
/// address. Each node counts its own requests, so behind a load balancer over N nodes a key gets at most
/// N × `limit`.
final class AddressRateLimiter: Sendable {
    /// Attempts allowed per window, and the window's length in seconds.
    let limit: Int
    let window: TimeInterval
    private let clock: any WardenClock
    /// Addresses kept before the expired windows are swept (a bound on memory under a flood of addresses).
    private let sweepAt = 10_000
    private let windows = Mutex<[String: (start: Date, count: Int)]>([:])

    init(limit: Int = 20, window: TimeInterval = 60, clock: any WardenClock) {
        self.limit = limit
        self.window = window
        self.clock = clock
    }

    /// Counts one attempt for `address` (or any other key): `nil` when it is allowed, else the whole seconds until it would be.
    func admit(_ address: String) -> Int? {
        let now = clock.now()
        return windows.withLock { windows in
            if windows.count >= sweepAt {
                windows = windows.filter { now.timeIntervalSince($0.value.start) < window }
            }
            var entry = windows[address] ?? (now, 0)
            if now.timeIntervalSince(entry.start) >= window { entry = (now, 0) }
            guard entry.count < limit else {
                return max(1, Int((window - now.timeIntervalSince(entry.start)).rounded(.up)))
            }
            entry.count += 1
            windows[address] = entry
            return nil
        }
    }
}
