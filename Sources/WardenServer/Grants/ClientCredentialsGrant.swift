import WardenCore
import WardenWire

/// `client_credentials` (RFC 6749 §4.4) against the client grants of SPEC §5: `audience` (or RFC 8707
/// `resource`) is required, the token gets the requested subset of the grant's scopes (all of them when `scope` is absent).
struct ClientCredentialsGrant: GrantHandler {
    /// The APIs and client grants.
    let tenant: TenantCache
    let issuer: TokenIssuer
    var grantType: GrantType { .clientCredentials }
    var requiresClientAuthentication: Bool { true }
    var failureEvent: LogEventType { .clientCredentialsFailed }

    /// A handler checking requests against the APIs and client grants of `tenant` and issuing through `issuer`.
    init(tenant: TenantCache, issuer: TokenIssuer) {
        self.tenant = tenant
        self.issuer = issuer
    }

    func exchange(_ request: TokenRequest) async throws -> TokenResponse {
        let clientID = request.client.client.clientID
        // `audience`, or its RFC 8707 synonym `resource` (SPEC §5); one of them is required.
        guard let requested = try ResourceIndicator.requested(request.parameters) else {
            throw OAuthError.invalidRequest("Missing required parameter: audience")
        }
        let audience = requested.identifier
        guard let api = try await requested.registeredAPI(in: tenant, allowingSystem: true),
            let grant = try await tenant.clientGrant(clientID: clientID, audience: audience)
        else {
            throw OAuthError(
                .accessDenied, "Client has not been granted scopes for: \(audience)", status: 403)
        }
        var scope = grant.scope
        if let requested = request.parameters["scope"] {
            let wanted = requested.split(separator: " ").map(String.init)
            let allowed = Set(grant.scope)
            if let outside = wanted.first(where: { !allowed.contains($0) }) {
                throw OAuthError(.invalidScope, "Client has not been granted scope: \(outside)")
            }
            scope = wanted.reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        }
        let token = try await issuer.accessToken(
            .init(
                subject: clientID + "@clients", audiences: [api.identifier], clientID: clientID, scope: scope,
                lifetime: api.tokenLifetime, algorithm: api.signingAlg,
                extraClaims: [("gty", "client-credentials")]))
        issuer.count(.clientCredentials)
        issuer.log(
            .clientCredentialsSucceeded, request: request, clientID: clientID, audience: audience,
            scope: scope.joined(separator: " "))
        return TokenResponse(members: [
            ("access_token", .string(token)),
            ("scope", .string(scope.joined(separator: " "))),
            ("expires_in", .number(Double(api.tokenLifetime))),
            ("token_type", "Bearer"),
        ])
    }
}
