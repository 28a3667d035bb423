import Foundation
import NIOPosix
public import WardenCore
import WardenWire

/// Rotation, revocation and loading of signing keys (SPEC §2). Changes take effect at once on this node;
/// other nodes pick them up on their next refresh (every cache TTL, ≤ 60 s).
public struct KeyManager: Sendable {
    public let ring: KeyRing
    let store: any SigningKeyStore & ChangeChannel
    let clock: any WardenClock

    /// Loads the stored keys, creating the bootstrap RS256 key in an empty database. ES256, PS256 and EdDSA
    /// keys are made when an API or a client first uses the algorithm: a JWKS of RSA keys only is what the
    /// vendor's SDKs can read (auth0-python's JWKS fetcher parses every key as RSA), so a tenant that never
    /// asks for another algorithm stays compatible with them.
    static func load(store: any SigningKeyStore & ChangeChannel, clock: any WardenClock) async throws -> KeyManager {
        var records = try await store.signingKeys()
        if records.isEmpty {
            try await store.insertCurrentSigningKey(try await generate(.rs256, clock: clock))
            records = try await store.signingKeys()
        }
        return KeyManager(ring: try KeyRing(records: records), store: store, clock: clock)
    }

    /// Re-reads the keys from storage.
    public func refresh() async throws {
        try ring.replace(records: try await store.signingKeys())
    }

    /// Makes a new current key for every algorithm in use; the previous ones stay published.
    @discardableResult
    public func rotate() async throws -> [SigningKeyRecord] {
        try await refresh()
        var made: [SigningKeyRecord] = []
        for alg in ring.algorithms {
            let record = try await Self.generate(alg, clock: clock)
            try await store.insertCurrentSigningKey(record)
            made.append(record)
        }
        try await refresh()
        await store.announce(.keys)
        return made
    }

    /// Stops publishing a previous key.
    public func revoke(kid: String) async throws {
        try await store.revokeSigningKey(kid: kid, at: clock.now())
        try await refresh()
        await store.announce(.keys)
    }

    /// The current key for `alg`, creating it when the algorithm is first configured (PS256, EdDSA).
    public func currentKey(for alg: SigningAlgorithm) async throws -> JWSKey {
        if let key = ring.currentKey(for: alg) { return key }
        try await refresh()
        if let key = ring.currentKey(for: alg) { return key }
        try await store.insertCurrentSigningKey(try await Self.generate(alg, clock: clock))
        try await refresh()
        await store.announce(.keys)
        guard let key = ring.currentKey(for: alg) else { throw OAuthError.serverError(debug: "no \(alg) key") }
        return key
    }

    /// A new key for `alg`. Making an RSA key can take a second, so it runs on NIO's thread pool for blocking
    /// work, not on the Swift concurrency pool, whose few threads (one per core) serve every request.
    private static func generate(_ alg: SigningAlgorithm, clock: any WardenClock) async throws -> SigningKeyRecord {
        let now = clock.now()
        return try await NIOThreadPool.singleton.runIfActive { try JWSKey.generate(alg: alg, now: now) }
    }
}
