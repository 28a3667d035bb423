import Foundation
import WardenCore
import WardenWire

/// The upstreams' JWK Sets (SPEC §15 "Sign-in"), cached per `jwks_uri` for 24 hours, or until an ID token names a
/// `kid` the cached set lacks: then fetched again, at most once a minute per set so that tokens with made-up
/// `kid`s cannot make Warden hammer an upstream.
actor UpstreamKeySets {
    static let maximumAge: TimeInterval = 86_400
    static let minimumRefetchInterval: TimeInterval = 60

    private let http: UpstreamHTTP
    private let clock: any WardenClock
    private var cache: [String: (keys: JSONValue, fetchedAt: Date)] = [:]

    init(http: UpstreamHTTP, clock: any WardenClock) {
        self.http = http
        self.clock = clock
    }

    /// The JWK Set at `url`: the cached one unless it is older than a day or `refresh` is asked (and the cached
    /// one is more than a minute old).
    func keys(at url: String, refresh: Bool = false) async throws -> JSONValue {
        let now = clock.now()
        if let cached = cache[url] {
            let age = now.timeIntervalSince(cached.fetchedAt)
            if age < Self.maximumAge, !refresh || age < Self.minimumRefetchInterval { return cached.keys }
        }
        let answer = try await http.get(url)
        guard answer.status == 200 else {
            throw UpstreamHTTP.Failure(description: "the JWKS answered HTTP \(answer.status)")
        }
        let keys = JSONValue.object(try answer.jsonObject("the JWKS"))
        guard keys["keys"]?.arrayValue != nil else { throw UpstreamHTTP.Failure(description: "the JWKS has no keys") }
        cache[url] = (keys, now)
        return keys
    }
}
