import Synchronization
import WardenWire

public import struct Foundation.Date

extension User {
    /// The five bytes of this process in its generated ids.
    private static let processBytes = RandomToken.bytes(5)
    /// The counter of generated ids, from a random start; its low 24 bits go into an id.
    private static let counter = Mutex<UInt32>(
        RandomToken.bytes(3).reduce(0) { $0 << 8 | UInt32($1) })

    /// The id of a user created without one (SPEC §9 `/users`): `auth0|` and the 24 hex digits of an ObjectId, as
    /// the reference platform's ids are — 4 bytes of seconds since 1970, 5 random bytes of this process, 3 bytes
    /// of a counter that starts at random.
    ///
    /// Ids made one after another sort one after another, so new users land at the end of the primary-key index
    /// and of the search projection's indexes rather than on random pages: with 24 random hex digits, an import of
    /// 1,000,000 users spent most of its time reading and writing those pages (issue 16). The id is no secret (it
    /// is every token's `sub`); nothing is authorized by knowing it.
    public static func generatedID(now: Date = Date()) -> String {
        let seconds = UInt32(truncatingIfNeeded: Int64(now.timeIntervalSince1970))
        let count = counter.withLock { value in
            value &+= 1
            return value
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(12)
        for shift in stride(from: 24, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: seconds >> shift)) }
        bytes += processBytes
        for shift in stride(from: 16, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: count >> shift)) }
        return "auth0|" + SecretHash.hex(bytes)
    }
}
