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
    /// The SHA-256 of an `auth_req_id`, held inline (no heap allocation per entry).
    struct Key: Hashable, Sendable {
        var words: (UInt64, UInt64, UInt64, UInt64)

        /// From ``BackchannelRequest/id`` (hex); `nil` if it is not 64 lower-case hex digits.
        init?(hex: String) {
            let utf8 = Array(hex.utf8)
            guard utf8.count == 64 else { return nil }
            var words: [UInt64] = [0, 0, 0, 0]
            for (index, character) in utf8.enumerated() {
                guard let nibble = Self.nibble(character) else { return nil }
                words[index / 16] = words[index / 16] << 4 | UInt64(nibble)
            }
            self.words = (words[0], words[1], words[2], words[3])
        }

        private static func nibble(_ character: UInt8) -> UInt8? {
            switch character {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): character - UInt8(ascii: "a") + 10
            default: nil
            }
        }

        static func == (lhs: Key, rhs: Key) -> Bool {
            lhs.words.0 == rhs.words.0 && lhs.words.1 == rhs.words.1 && lhs.words.2 == rhs.words.2
                && lhs.words.3 == rhs.words.3
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(words.0)
            hasher.combine(words.1)
            hasher.combine(words.2)
            hasher.combine(words.3)
        }
    }

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

    private let entries = Mutex<[Key: Entry]>([:])

    /// The SHA-256 (hex, for storage) and key of an `auth_req_id`.
    static func identify(_ authRequestID: String) -> (id: String, key: Key) {
        let id = SecretHash.sha256Hex(authRequestID)
        // A SHA-256 in hex always parses.
        return (id, Key(hex: id)!)
    }

    /// Remembers a request that storage says is pending (just created, or just read).
    func trackPending(_ key: Key, clientID: String, expiresAt: Date) {
        entries.withLock { entries in
            if entries[key] != nil {
                entries[key]?.verified = true
            } else {
                entries[key] = Entry(
                    clientID: clientID, expiresAt: expiresAt.timeIntervalSince1970, lastPoll: nil,
                    interval: Int32(Self.initialInterval), verified: true)
            }
        }
    }

    /// A poll by `clientID` at `now`: answers from memory when it can, and records the poll for pacing.
    func poll(_ key: Key, clientID: String, now: Date) -> Answer {
        let now = now.timeIntervalSince1970
        return entries.withLock { entries in
            guard var entry = entries[key] else { return .unverified }
            guard entry.clientID == clientID else { return .foreign }
            guard entry.verified else { return .unverified }
            guard now < entry.expiresAt else { return .expired }
            defer { entries[key] = entry }
            let tooSoon = entry.lastPoll.map { now - $0 < Double(entry.interval) } ?? false
            entry.lastPoll = now
            guard tooSoon else { return .pending }
            entry.interval += Int32(Self.slowDownIncrement)
            return .slowDown(interval: Int(entry.interval))
        }
    }

    /// The request was decided, or may have been: the next poll reads storage.
    func markUnverified(_ key: Key) {
        entries.withLock { entries in entries[key]?.verified = false }
    }

    /// Every request may have changed.
    func markAllUnverified() {
        entries.withLock { entries in
            for key in entries.keys { entries[key]?.verified = false }
        }
    }

    /// Forgets a request (redeemed, or known to be gone).
    func forget(_ key: Key) {
        _ = entries.withLock { entries in entries.removeValue(forKey: key) }
    }

    /// Forgets requests that expired before `date`.
    func removeExpired(before date: Date) {
        let cutoff = date.timeIntervalSince1970
        entries.withLock { entries in entries = entries.filter { $0.value.expiresAt >= cutoff } }
    }

    /// How many requests this node remembers.
    var count: Int { entries.withLock { $0.count } }
}
