import Foundation
import Synchronization
import WardenCore
import WardenWire

/// This node's memory of CIBA requests (SPEC §6.2): which ones are known to be pending, and when their
/// client last polled. A poll of a request known to be pending is answered from here, without storage.
///
/// A request becomes *unverified* when a decision is announced (this node, or another through PostgreSQL
/// `NOTIFY`) and whenever the change channel says anything may have changed (a reconnection; on SQLite, a
/// commit by another process on the same file); the next poll of an unverified request reads storage. Pacing
/// (`interval`, raised by `slow_down`) is kept per node, as SPEC §6.2 allows.
final class BackchannelPollTracker: Sendable {
    /// What a poll found in memory.
    enum Answer: Equatable {
        /// Pending and paced: answer `authorization_pending`.
        case pending
        /// Polled too soon: answer `slow_down` with the raised interval.
        case slowDown(interval: Int)
        /// Past its expiry while pending: `expired_token`.
        case expired
        /// Another client's request: `invalid_grant`.
        case foreign
        /// Not known to be pending here: read storage.
        case unverified
    }

    private struct Entry {
        var clientID: String
        var expiresAt: Double
        /// Seconds since the epoch of the previous poll; `nil` before the first.
        var lastPoll: Double?
        var interval: Int32
        /// Whether storage said it was pending, with no change announced since.
        var verified: Bool
    }

    /// The polling interval a request starts with (SPEC §6.1 `interval`), and what `slow_down` adds.
    static let initialInterval = 5
    static let slowDownIncrement = 5

    /// By request; a ``BackchannelRequest/ID`` is held inline (no heap allocation per entry).
    private let entries = Mutex<[BackchannelRequest.ID: Entry]>([:])

    /// Remembers a request that storage says is pending (just created, or just read).
    func trackPending(_ id: BackchannelRequest.ID, clientID: String, expiresAt: Date) {
        entries.withLock { entries in
            if entries[id] != nil {
                entries[id]?.verified = true
            } else {
                entries[id] = Entry(
                    clientID: clientID, expiresAt: expiresAt.timeIntervalSince1970, lastPoll: nil,
                    interval: Int32(Self.initialInterval), verified: true)
            }
        }
    }

    /// A poll by `clientID` at `now`: answers from memory when it can, and records the poll for pacing.
    func poll(_ id: BackchannelRequest.ID, clientID: String, now: Date) -> Answer {
        let now = now.timeIntervalSince1970
        return entries.withLock { entries in
            guard var entry = entries[id] else { return .unverified }
            guard entry.clientID == clientID else { return .foreign }
            guard entry.verified else { return .unverified }
            guard now < entry.expiresAt else { return .expired }
            defer { entries[id] = entry }
            let tooSoon = entry.lastPoll.map { now - $0 < Double(entry.interval) } ?? false
            entry.lastPoll = now
            guard tooSoon else { return .pending }
            entry.interval += Int32(Self.slowDownIncrement)
            return .slowDown(interval: Int(entry.interval))
        }
    }

    /// The request was decided, or may have been: the next poll reads storage.
    func markUnverified(_ id: BackchannelRequest.ID) {
        entries.withLock { entries in entries[id]?.verified = false }
    }

    /// Every request may have changed.
    func markAllUnverified() {
        entries.withLock { entries in
            for id in entries.keys { entries[id]?.verified = false }
        }
    }

    /// Forgets a request (redeemed, or known to be gone).
    func forget(_ id: BackchannelRequest.ID) {
        _ = entries.withLock { entries in entries.removeValue(forKey: id) }
    }

    /// Forgets requests that expired before `date`.
    func removeExpired(before date: Date) {
        let cutoff = date.timeIntervalSince1970
        entries.withLock { entries in entries = entries.filter { $0.value.expiresAt >= cutoff } }
    }

    /// How many requests this node remembers.
    var count: Int { entries.withLock { $0.count } }
}
