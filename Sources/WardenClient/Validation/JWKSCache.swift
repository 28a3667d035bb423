package import Foundation
package import JWTKit

/// The provider's signing keys (RFC 7517 §5, SPEC §2), fetched from `jwks_uri` on first use and kept.
///
/// A token signed with a key this cache does not know (a `kid` not in it) makes it fetch the JWKS once more,
/// so a key rotation on the server is picked up without a restart; concurrent fetches share one request.
/// Such refetches are rate-limited: after one, unknown `kid`s are refused without a fetch for
/// ``refetchInterval``, so a flood of made-up `kid`s cannot hammer the JWKS endpoint. The first load is not
/// limited. Keys the SDK cannot use (another `kty`, a malformed key) are skipped.
///
/// Shared by ``WardenClient`` and the `WardenResourceServer` product (hence `package`).
package actor JWKSCache {
    package let url: URL
    let transport: any HTTPTransport
    /// The least time between two refetches for unknown `kid`s (`.zero`: no limit).
    package let refetchInterval: Duration
    private var keys = JWTKeyCollection()
    private var kids: Set<String> = []
    private var loaded = false
    /// The fetch in flight and its number; every caller awaiting it applies its result (idempotently), so none
    /// reads the keys between the fetch's end and the moment its starter resumes.
    private var loading: (task: Task<(JWTKeyCollection, Set<String>), any Error>, generation: Int)?
    private var applied = 0
    private var lastRefetch: ContinuousClock.Instant?
    /// How many times the JWKS was fetched (for tests and diagnostics).
    package private(set) var fetchCount = 0

    package init(url: URL, transport: any HTTPTransport, refetchInterval: Duration = .zero) {
        self.url = url
        self.transport = transport
        self.refetchInterval = refetchInterval
    }

    /// The key collection, when it holds `kid`: from the cache, else after one (re)fetch; `nil` if even the
    /// fresh JWKS lacks it, or if a refetch happened less than ``refetchInterval`` ago.
    package func keys(containing kid: String) async throws -> JWTKeyCollection? {
        if loading != nil { try? await reload() }
        if loaded, kids.contains(kid) { return keys }
        if loaded {
            let now = ContinuousClock.now
            if let lastRefetch, now < lastRefetch.advanced(by: refetchInterval) { return nil }
            lastRefetch = now
        }
        try await reload()
        return kids.contains(kid) ? keys : nil
    }

    /// Fetches the JWKS, or joins the fetch in flight.
    private func reload() async throws {
        let current: (task: Task<(JWTKeyCollection, Set<String>), any Error>, generation: Int)
        if let loading {
            current = loading
        } else {
            fetchCount += 1
            current = (Task { [url, transport] in try await Self.fetch(url, transport) }, fetchCount)
            loading = current
        }
        defer { if loading?.generation == current.generation { loading = nil } }
        let result = try await current.task.value
        guard current.generation > applied else { return }
        applied = current.generation
        (keys, kids) = result
        loaded = true
    }

    private static func fetch(
        _ url: URL, _ transport: any HTTPTransport
    ) async throws -> (JWTKeyCollection, Set<String>) {
        let response = try await WardenClient.send(
            HTTPRequest(method: "GET", url: url, headers: [("Accept", "application/json")]), transport)
        let set = try WardenClient.decodeSuccess(JWKS.self, from: response)
        let collection = JWTKeyCollection()
        var kids: Set<String> = []
        for key in set.keys {
            guard let kid = key.keyIdentifier?.string, (try? await collection.add(jwk: key)) != nil else { continue }
            kids.insert(kid)
        }
        return (collection, kids)
    }
}
