import Foundation
import Metrics
import WardenCore
import WardenWire

/// The steps every grant shares: minting access tokens (RFC 9068), counting them, logging the exchange.
struct TokenIssuer: Sendable {
    /// The signing keys of access and ID tokens.
    let keys: KeyManager
    /// The APIs (audience, lifetime, algorithm, offline access) a user's tokens are for.
    let tenant: TenantCache
    /// Where new refresh tokens are stored.
    let refreshTokens: any RefreshTokenStore
    /// Where the user of a grant is read (``activeUser(id:)``).
    let users: any UserStore
    let eventLog: EventLog
    let clock: any WardenClock
    /// `{issuer}` with its trailing slash: the `iss` of every token.
    let issuer: String
    /// `{issuer}userinfo`, the audience of `openid` and API-less access tokens (SPEC §3).
    let userinfoAudience: String
    private let counters: [GrantType: Counter]

    /// An issuer signing with `keys` as `issuer`, reading APIs from `tenant` and users from `users`, storing
    /// refresh tokens in `refreshTokens` and logging exchanges to `eventLog`.
    init(
        keys: KeyManager, tenant: TenantCache, refreshTokens: any RefreshTokenStore, users: any UserStore,
        eventLog: EventLog, clock: any WardenClock, issuer: String, userinfoAudience: String
    ) {
        self.keys = keys
        self.tenant = tenant
        self.refreshTokens = refreshTokens
        self.users = users
        self.eventLog = eventLog
        self.clock = clock
        self.issuer = issuer
        self.userinfoAudience = userinfoAudience
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
        let key = try await keys.currentKey(for: grant.algorithm)
        let now = nowSeconds
        var claims: [(String, JSONValue)] = [
            ("iss", .string(issuer)),
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
        eventLog.record(
            WardenCore.LogEvent(
                date: clock.now(), type: type, description: description,
                clientID: clientID ?? request?.client.client.clientID, clientName: request?.client.client.name,
                ip: request?.ip, userAgent: request?.userAgent, userID: userID, audience: audience, scope: scope))
    }

    /// Seconds since the epoch, as an integer (JWT NumericDate).
    var nowSeconds: Int { Int(clock.now().timeIntervalSince1970) }
}
