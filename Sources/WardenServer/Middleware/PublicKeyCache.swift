import Synchronization
import WardenCore
import WardenWire

/// Parsed `private_key_jwt` public keys by PEM, so an assertion's signature check does not parse the client's
/// PEM on every token request. A PEM's key never changes; the cache is emptied when it grows past a bound.
final class PublicKeyCache: Sendable {
    private let verifiers = Mutex<[String: JWSVerifier]>([:])
    private static let capacity = 1024

    /// The verifier for `pem`, or `nil` when it does not parse.
    func verifier(pem: String) -> JWSVerifier? {
        if let hit = verifiers.withLock({ $0[pem] }) { return hit }
        guard let parsed = try? JWSVerifier(pem: pem) else { return nil }
        verifiers.withLock { cache in
            if cache.count >= Self.capacity { cache.removeAll(keepingCapacity: true) }
            cache[pem] = parsed
        }
        return parsed
    }
}
