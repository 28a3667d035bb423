import Foundation
import Synchronization
import WardenCore
import WardenWire

/// Client ID Metadata Documents (draft-ietf-oauth-client-id-metadata-document, SPEC §13): with
/// `--client-metadata-documents`, a `client_id` that is an `https` URL with a path names a JSON document of the
/// client's metadata. It is fetched with ``GuardedFetch`` (no redirects, 5 s, at most 5 KiB, no private
/// addresses unless allow-listed), cached as its `Cache-Control` says within 60 s and 24 h, and checked: its
/// `client_id` must be the URL itself, its metadata must pass the rules of dynamic registration, and it may only
/// describe a public client (`none`) or one with `private_key_jwt` keys. The client is third-party and never stored.
final class ClientMetadataDocuments: Sendable {
    let fetch: GuardedFetch
    private let clock: any WardenClock
    private let cache = Mutex<[String: (client: Client, until: Date)]>([:])
    /// Cache lifetimes (SPEC §13) and the most documents kept.
    static let minimumAge: Double = 60
    static let maximumAge: Double = 86400
    static let maximumEntries = 10_000

    /// Documents fetched with `fetch`, cached by `clock`.
    init(fetch: GuardedFetch, clock: any WardenClock) {
        self.fetch = fetch
        self.clock = clock
    }

    /// Why a document cannot be used, said for the error page at `/authorize` and the token endpoint.
    struct Failure: Error, Equatable, CustomStringConvertible {
        var description: String
    }

    /// Whether `clientID` names a document: an `https` URL (or `http` for an allow-listed host) with a path
    /// beyond `/`, without query, fragment or user information.
    func names(_ clientID: String) -> Bool {
        guard let components = URLComponents(string: clientID), components.path.count > 1,
            components.query == nil, components.fragment == nil, components.user == nil,
            components.password == nil, let url = components.url
        else { return false }
        return fetch.isAllowed(url)
    }

    /// The client the document at `clientID` describes, from the cache or fetched now.
    func client(id clientID: String) async throws(Failure) -> Client {
        let now = clock.now()
        if let hit = cache.withLock({ $0[clientID] }), hit.until > now { return hit.client }
        guard let url = URL(string: clientID) else { throw Failure(description: "the client_id is not a URL") }
        let answer: GuardedFetch.Answer
        do {
            answer = try await fetch.get(url)
        } catch {
            throw Failure(description: error.description)
        }
        let client = try Self.client(from: answer.body, id: clientID, issuedAt: Int(now.timeIntervalSince1970))
        let until = now.addingTimeInterval(Self.lifetime(cacheControl: answer.cacheControl))
        cache.withLock { cache in
            if cache.count >= Self.maximumEntries { cache = cache.filter { $0.value.until > now } }
            if cache.count < Self.maximumEntries { cache[clientID] = (client, until) }
        }
        return client
    }

    /// The client a document describes, or why it cannot be one.
    static func client(from body: [UInt8], id clientID: String, issuedAt: Int) throws(Failure) -> Client {
        guard case .object(let object)? = try? JSONValue(parsing: body) else {
            throw Failure(description: "the document is not a JSON object")
        }
        guard object["client_id"]?.stringValue == clientID else {
            throw Failure(description: "the document's client_id is not its own URL")
        }
        let metadata: RegistrationMetadata
        do {
            metadata = try RegistrationMetadata(object)
        } catch {
            throw Failure(description: error.description)
        }
        guard metadata.tokenEndpointAuthMethod == .none || metadata.tokenEndpointAuthMethod == .privateKeyJWT else {
            throw Failure(description: "a metadata document's client authenticates with none or private_key_jwt")
        }
        return metadata.client(id: clientID, issuedAt: issuedAt, method: .metadataDocument)
    }

    /// Seconds to keep a document: its `Cache-Control` `max-age` within 60 s and 24 h; `no-store` or `no-cache`
    /// mean the least, no header the least too.
    static func lifetime(cacheControl: String?) -> Double {
        let directives = (cacheControl ?? "").lowercased().split(separator: ",").map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        guard !directives.contains("no-store"), !directives.contains("no-cache"),
            let maxAge = directives.first(where: { $0.hasPrefix("max-age=") }),
            let seconds = Double(maxAge.dropFirst("max-age=".count))
        else { return minimumAge }
        return min(max(seconds, minimumAge), maximumAge)
    }
}
