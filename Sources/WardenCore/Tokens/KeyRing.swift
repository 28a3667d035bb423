import Foundation
import Synchronization
import WardenWire

/// The signing keys of one node (SPEC §2): one current key per algorithm, previous keys published until
/// revoked. An immutable ``KeyRing/Snapshot`` is swapped under a lock, so the token path reads keys with one
/// uncontended lock and never touches the database; storage is re-read on change and at least every TTL.
public final class KeyRing: Sendable {
    /// The loaded keys at one instant.
    public struct Snapshot: Sendable {
        public let current: [SigningAlgorithm: JWSKey]
        public let published: [String: JWSKey]
        /// The JWKS document, serialized once per change.
        public let jwksJSON: String

        public init(records: [SigningKeyRecord]) throws {
            var current: [SigningAlgorithm: JWSKey] = [:]
            var published: [String: JWSKey] = [:]
            var order: [JWSKey] = []
            for record in records where record.revokedAt == nil {
                let key = try JWSKey(record: record)
                published[record.kid] = key
                order.append(key)
                if record.current { current[record.alg] = key }
            }
            self.current = current
            self.published = published
            self.jwksJSON = JSONValue.serializedObject([("keys", .array(order.map(\.publicJWK.jsonValue)))])
        }
    }

    private let state: Mutex<Snapshot>

    public init(records: [SigningKeyRecord]) throws {
        state = Mutex(try Snapshot(records: records))
    }

    public var snapshot: Snapshot { state.withLock { $0 } }

    /// Replaces the keys (after a rotation, a revocation, or a refresh from storage).
    public func replace(records: [SigningKeyRecord]) throws {
        let next = try Snapshot(records: records)
        state.withLock { $0 = next }
    }

    /// The current key for `alg`, if one exists.
    public func currentKey(for alg: SigningAlgorithm) -> JWSKey? {
        state.withLock { $0.current[alg] }
    }

    /// A published key by `kid` (for verifying tokens Warden issued).
    public func publishedKey(kid: String) -> JWSKey? {
        state.withLock { $0.published[kid] }
    }

    /// The algorithms that have a current key.
    public var algorithms: [SigningAlgorithm] {
        state.withLock { $0.current.keys.sorted() }
    }
}
