import Foundation
import Metrics
import WardenCore
import WardenWire

/// The steps every grant shares: minting access tokens (RFC 9068), counting them, logging the exchange.
struct TokenIssuer: Sendable {
    let runtime: WardenRuntime
    private let counters: [GrantType: Counter]

    init(runtime: WardenRuntime) {
        self.runtime = runtime
        var counters: [GrantType: Counter] = [:]
        for grant in [GrantType.clientCredentials, .authorizationCode, .refreshToken, .ciba, .tokenExchange] {
            counters[grant] = Counter(label: "warden_tokens_issued_total", dimensions: [("grant_type", grant.rawValue)])
        }
        self.counters = counters
    }

    /// What an access token is for.
    struct AccessTokenGrant {
        var subject: String
        var audiences: [String]
        var clientID: String
        var scope: [String]
        var lifetime: Int
        var algorithm: SigningAlgorithm
        var authorizationDetails: JSONValue?
        var extraClaims: [(String, JSONValue)] = []
    }

    /// Signs an access token as a JWT with header `typ: at+jwt` (RFC 9068 §2), returning it and its lifetime.
    func accessToken(_ grant: AccessTokenGrant) async throws -> String {
        let key = try await runtime.keys.currentKey(for: grant.algorithm)
        let now = runtime.nowSeconds
        var claims: [(String, JSONValue)] = [
            ("iss", .string(runtime.issuer)),
            ("sub", .string(grant.subject)),
            (
                "aud",
                grant.audiences.count == 1 ? .string(grant.audiences[0]) : .array(grant.audiences.map { .string($0) })
            ),
            ("iat", .number(Double(now))),
            ("exp", .number(Double(now + grant.lifetime))),
            ("jti", .string(RandomToken.make(bytes: 16))),
            ("scope", .string(grant.scope.joined(separator: " "))),
            ("client_id", .string(grant.clientID)),
            ("azp", .string(grant.clientID)),
        ]
        if let details = grant.authorizationDetails { claims.append(("authorization_details", details)) }
        claims.append(contentsOf: grant.extraClaims)
        return try key.sign(payload: JSONValue.serializedObject(claims), type: "at+jwt")
    }

    /// Counts an issued token by grant for `/metrics`.
    func count(_ grant: GrantType) {
        counters[grant]?.increment()
    }

    /// Writes an exchange event.
    func log(
        _ type: LogEventType, request: TokenRequest?, clientID: String?, description: String? = nil,
        audience: String? = nil, scope: String? = nil, userID: String? = nil
    ) {
        runtime.eventLog.record(
            WardenCore.LogEvent(
                date: runtime.clock.now(), type: type, description: description,
                clientID: clientID ?? request?.client.client.clientID, clientName: request?.client.client.name,
                ip: request?.ip, userAgent: request?.userAgent, userID: userID, audience: audience, scope: scope))
    }
}
