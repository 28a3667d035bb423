import AsyncHTTPClient
import Foundation
import Synchronization
import WardenClient
import WardenWire

/// The real transport (AsyncHTTPClient over loopback, redirects not followed), recording each exchange with
/// its times so tests can prove what the SDK sent and when; before each request the live tenant's clock is
/// moved to the wall clock.
final class RecordingTransport: HTTPTransport {
    /// One request and its answer.
    struct Exchange: Sendable {
        var method: String
        var path: String
        /// The form body's `grant_type`, when there is one.
        var grantType: String?
        var sent: ContinuousClock.Instant
        var answered: ContinuousClock.Instant
        var status: Int
        /// The answer's OAuth `error`, when there is one.
        var error: String?
    }

    private let live: LiveWarden
    private let real: AsyncHTTPTransport
    private let log = Mutex<[Exchange]>([])

    init(live: LiveWarden) {
        self.live = live
        real = AsyncHTTPTransport(client: live.http)
    }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        live.syncClock()
        let sent = ContinuousClock.now
        let response = try await real.send(request)
        let error = (try? JSONDecoder().decode(JSONValue.self, from: response.body))?["error"]?.stringValue
        let exchange = Exchange(
            method: request.method, path: request.url.path, grantType: Self.grantType(of: request), sent: sent,
            answered: .now, status: response.status, error: error)
        log.withLock { $0.append(exchange) }
        return response
    }

    /// Everything sent so far, oldest first.
    var exchanges: [Exchange] { log.withLock { $0 } }

    /// The CIBA polls sent so far (SPEC §6.2).
    var polls: [Exchange] { exchanges.filter { $0.grantType == "urn:openid:params:grant-type:ciba" } }

    /// The JWKS fetches so far.
    var jwksFetches: Int { exchanges.filter { $0.path.hasSuffix("/jwks.json") }.count }

    private static func grantType(of request: HTTPRequest) -> String? {
        guard let body = request.body, let text = String(data: body, encoding: .utf8) else { return nil }
        let field = text.split(separator: "&").first { $0.hasPrefix("grant_type=") }
        return field.flatMap { $0.dropFirst("grant_type=".count).removingPercentEncoding }
    }
}

extension LiveWarden {
    /// Waits until `/healthz` answers (at most 10 s).
    func waitUntilReady() async throws {
        let transport = RecordingTransport(live: self)
        for _ in 0..<200 {
            let url = issuer.appendingPathComponent("healthz")
            if let response = try? await transport.send(.init(method: "GET", url: url)), response.status == 200 {
                return
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw LiveWardenError.notReady(issuer)
    }

    /// A Management API access token with every scope (SPEC §9), through `client_credentials`.
    func managementToken(transport: any HTTPTransport) async throws -> String {
        let client = WardenClient(
            configuration: .init(
                issuer: issuer, clientID: managementClient.id,
                authentication: .clientSecretPost(managementClient.secret),
                metadata: ProviderMetadata(
                    issuer: issuer, authorizationEndpoint: issuer.appendingPathComponent("authorize"),
                    tokenEndpoint: issuer.appendingPathComponent("oauth/token"),
                    jwksURI: issuer.appendingPathComponent(".well-known/jwks.json"))),
            transport: transport)
        return try await client.clientCredentials(audience: issuer.absoluteString + "api/v2/").accessToken
    }

    /// A Management API call with a fresh token; returns the JSON answer and its status.
    func management(
        _ method: String, _ path: String, json: String? = nil, transport: any HTTPTransport
    ) async throws -> (status: Int, json: JSONValue) {
        let token = try await managementToken(transport: transport)
        var headers = [("Authorization", "Bearer " + token)]
        if json != nil { headers.append(("Content-Type", "application/json")) }
        let response = try await transport.send(
            HTTPRequest(
                method: method, url: URL(string: issuer.absoluteString + "api/v2/" + path)!, headers: headers,
                body: json.map { Data($0.utf8) }))
        return (response.status, (try? JSONDecoder().decode(JSONValue.self, from: response.body)) ?? .null)
    }
}
