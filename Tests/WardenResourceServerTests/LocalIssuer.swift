import Foundation
import Synchronization
import Testing
import WardenClient
import WardenCore
import WardenResourceServer
import WardenWire

/// A stand-in for Warden made of locally generated keys: it signs access tokens the way Warden does (RFC 9068
/// header and claims, SPEC §3) and serves its JWKS at `{issuer}.well-known/jwks.json` through an
/// ``HTTPTransport`` that counts the fetches.
final class LocalIssuer: HTTPTransport {
    static let issuer = URL(string: "https://id.example.com/")!
    static let resource = "https://api.example.com"
    static let jwksURL = "https://id.example.com/.well-known/jwks.json"

    private struct State {
        var published: [JWK] = []
        var fetches = 0
    }
    private let state = Mutex(State())

    /// How many times the JWKS was fetched.
    var jwksFetches: Int { state.withLock { $0.fetches } }

    /// A new key of `alg`, not yet published.
    static func key(_ alg: SigningAlgorithm = .rs256) throws -> JWSKey {
        try JWSKey(record: JWSKey.generate(alg: alg, now: Date()))
    }

    /// An issuer publishing one new key of `alg`, and that key.
    static func publishing(_ alg: SigningAlgorithm = .rs256) throws -> (LocalIssuer, JWSKey) {
        let issuer = LocalIssuer()
        let key = try key(alg)
        issuer.publish([key])
        return (issuer, key)
    }

    /// Publishes `keys` in the JWKS (replacing what was there).
    func publish(_ keys: [JWSKey]) {
        state.withLock { $0.published = keys.map(\.publicJWK) }
    }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        guard request.method == "GET", request.url.absoluteString == Self.jwksURL else {
            return HTTPResponse(status: 404)
        }
        let keys = state.withLock { state -> [JWK] in
            state.fetches += 1
            return state.published
        }
        return HTTPResponse(
            status: 200, headers: [("Content-Type", "application/json")],
            body: try JSONEncoder().encode(JWKSet(keys: keys)))
    }

    /// The claims of a token of alice's for the agent client, for the resource, with `read:balance`, valid for
    /// five minutes.
    static func claims(now: Date = Date()) -> [String: JSONValue] {
        let now = now.timeIntervalSince1970.rounded(.down)
        return [
            "iss": .string(issuer.absoluteString), "sub": "auth0|alice", "aud": .string(resource), "azp": "agent",
            "client_id": "agent", "scope": "openid read:balance", "iat": .number(now), "exp": .number(now + 300),
            "jti": "jti-1",
        ]
    }

    /// A JWS of `claims` (default ``claims(now:)``, changed by `change`) signed by `key` with header `typ` `type`.
    static func token(
        _ key: JWSKey, type: String = "at+jwt", _ change: (inout [String: JSONValue]) -> Void = { _ in }
    ) throws -> String {
        var claims = claims()
        change(&claims)
        return try key.sign(payload: JSONValue.object(claims).serialized, type: type)
    }

    /// A resource server for ``resource`` of this issuer.
    func server(
        leeway: Duration = .seconds(30), jwksRefetchInterval: Duration = .seconds(30),
        _ change: (inout ProtectedResource.Configuration) -> Void = { _ in }
    ) -> ProtectedResource {
        var configuration = ProtectedResource.Configuration(
            issuer: Self.issuer, resource: Self.resource, scopesSupported: ["read:balance", "transfer:funds"],
            leeway: leeway, jwksRefetchInterval: jwksRefetchInterval)
        change(&configuration)
        return ProtectedResource(configuration: configuration, transport: self)
    }
}

/// The SDK's HTTP types, named apart from HTTPTypes' (which Hummingbird brings into the files that import it).
typealias SDKRequest = HTTPRequest
typealias SDKResponse = HTTPResponse

/// Expects `body` to throw a ``ProtectedResourceError`` of `code` whose description starts with `detail`.
func expectRefusal(
    _ code: OAuthError.Code, _ detail: String, sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () async throws -> Void
) async {
    let error = await #expect(throws: ProtectedResourceError.self, sourceLocation: sourceLocation) { try await body() }
    #expect(error?.code == code, sourceLocation: sourceLocation)
    #expect(
        error?.description.hasPrefix(detail) == true, "\(String(describing: error?.description))",
        sourceLocation: sourceLocation)
}
