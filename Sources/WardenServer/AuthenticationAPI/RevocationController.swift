import HTTPTypes
import Hummingbird
import WardenCore
import WardenWire

/// `POST /oauth/revoke` (RFC 7009, SPEC §3): a client revokes one of its refresh tokens, and with it the
/// token's whole family (`srrt` logged). The client authenticates as at the token endpoint.
///
/// Any other token — unknown, already revoked, an access token (a self-contained JWT), or another client's
/// refresh token — is answered 200 as well, revoking nothing (RFC 7009 §2.2), so the endpoint does not reveal
/// which tokens exist.
struct RevocationController: Sendable {
    let clients: ClientAuthenticator
    let refreshTokens: any RefreshTokenStore
    let familyRevocation: RefreshTokenFamilyRevocation
    /// Logs the revocation (`srrt`).
    let issuer: TokenIssuer
    let clock: any WardenClock
    /// `--trusted-proxies`: whose `X-Forwarded-For` names the caller.
    let trustedProxies: [CIDR]

    /// The endpoint revoking, through `familyRevocation`, the tokens of `refreshTokens` for the clients
    /// `clients` authenticates.
    init(
        clients: ClientAuthenticator, refreshTokens: any RefreshTokenStore,
        familyRevocation: RefreshTokenFamilyRevocation, issuer: TokenIssuer, clock: any WardenClock,
        trustedProxies: [CIDR]
    ) {
        self.clients = clients
        self.refreshTokens = refreshTokens
        self.familyRevocation = familyRevocation
        self.issuer = issuer
        self.clock = clock
        self.trustedProxies = trustedProxies
    }

    func addRoutes(to router: Router<WardenRequestContext>) {
        router.post("oauth/revoke") { request, context in try await revoke(request, context: context) }
    }

    func revoke(_ request: Request, context: WardenRequestContext) async throws -> Response {
        let parameters = try await RequestParameters.read(from: request)
        let record = try await clients.authenticate(
            headers: request.headers, parameters: parameters, credentialsRequired: false, endpoint: "oauth/revoke")
        guard let token = parameters["token"] else {
            throw OAuthError.invalidRequest("Missing required parameter: token")
        }
        // `token_type_hint` (RFC 7009 §2.1) needs no lookup: only refresh tokens are stored, by hash.
        if let stored = try await refreshTokens.refreshToken(hash: SecretHash.sha256Hex(token)),
            stored.clientID == record.client.clientID
        {
            let revoked = try await familyRevocation.revoke(
                family: stored.familyID, of: stored.clientID, at: clock.now())
            if revoked > 0 {
                issuer.log(
                    .refreshTokenRevoked,
                    request: TokenRequest(
                        parameters: parameters, client: record,
                        ip: ClientAddress.ip(of: request, context: context, trusted: trustedProxies),
                        userAgent: request.headers[.userAgent]),
                    clientID: record.client.clientID, audience: stored.audience,
                    scope: stored.scope.joined(separator: " "), userID: stored.userID)
            }
        }
        return Response(status: .ok, headers: [.cacheControl: "no-store", HTTPField.Name("Pragma")!: "no-cache"])
    }
}
