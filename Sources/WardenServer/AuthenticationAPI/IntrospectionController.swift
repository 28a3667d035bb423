import Foundation
import HTTPTypes
import Hummingbird
import WardenCore
import WardenWire

/// `POST /oauth/introspect` (RFC 7662, SPEC §5.1): a confidential client asks whether a token is active.
///
/// The client authenticates as at the token endpoint (an assertion's `aud` may be this endpoint's URL, SPEC §4);
/// public clients cannot introspect (401 `invalid_client`). `token` is required (400 `invalid_request`);
/// `token_type_hint` is accepted and not needed (RFC 7662 §2.1): a token's shape tells which it is. A Warden
/// access token — signed by a published key, issued here, unexpired, its grant not revoked (``AccessTokenRevocation``), its user not blocked — is active
/// for the client it was issued to and for a client with a client grant for one of its audiences; a refresh
/// token — stored, unexpired, neither revoked nor rotated away, its user not blocked — for the client it was
/// issued to. Anything else, garbage included, is `{"active": false}` (RFC 7662 §2.2: a client not allowed to
/// know gets the same answer as for an unknown token).
struct IntrospectionController: Sendable {
    let clients: ClientAuthenticator
    let accessTokens: AccessTokenVerifier
    let revocations: AccessTokenRevocation
    /// The clients and client grants.
    let tenant: TenantCache
    let refreshTokens: any RefreshTokenStore
    let users: any UserStore
    let clock: any WardenClock
    /// `{issuer}` with its trailing slash: the `iss` of a refresh token's answer.
    let issuer: String

    /// The endpoint answering the clients `clients` authenticates about the tokens `accessTokens` verifies
    /// and the refresh tokens of `refreshTokens`.
    init(
        clients: ClientAuthenticator, accessTokens: AccessTokenVerifier, revocations: AccessTokenRevocation,
        tenant: TenantCache, refreshTokens: any RefreshTokenStore, users: any UserStore, clock: any WardenClock,
        issuer: String
    ) {
        self.clients = clients
        self.accessTokens = accessTokens
        self.revocations = revocations
        self.tenant = tenant
        self.refreshTokens = refreshTokens
        self.users = users
        self.clock = clock
        self.issuer = issuer
    }

    func addRoutes(to router: Router<WardenRequestContext>) {
        router.post("oauth/introspect") { request, _ in try await introspect(request) }
    }

    func introspect(_ request: Request) async throws -> Response {
        let parameters = try await RequestParameters.read(from: request)
        let caller = try await clients.authenticate(
            headers: request.headers, parameters: parameters, credentialsRequired: true, endpoint: "oauth/introspect"
        ).client
        guard !caller.isPublic else {
            throw OAuthError(.invalidClient, "Public clients cannot introspect tokens")
        }
        guard let token = parameters["token"] else {
            throw OAuthError.invalidRequest("Missing required parameter: token")
        }
        // `token_type_hint` (RFC 7662 §2.1) is not needed: access tokens are JWTs (dot-separated), refresh tokens
        // opaque base64url; a token of the wrong shape for its hint is still found.
        let members =
            token.contains(".")
            ? try await accessToken(token, caller: caller) : try await refreshToken(token, caller: caller)
        return .json(JSONValue.serializedObject(members ?? [("active", false)]), noStore: true)
    }

    /// The members of an active access token's answer, or `nil`.
    private func accessToken(_ token: String, caller: Client) async throws -> [(String, JSONValue)]? {
        guard let jws = try? accessTokens.verify(token, audience: nil),
            let subject = jws.payload["sub"]?.stringValue, let clientID = jws.payload["client_id"]?.stringValue
        else { return nil }
        guard try await mayIntrospect(jws, issuedTo: clientID, caller: caller),
            try await revocations.isRevoked(jws, now: clock.now()) == false,
            try await isActiveSubject(subject, of: jws)
        else { return nil }
        var members: [(String, JSONValue)] = [("active", true)]
        for claim in ["scope", "client_id", "sub", "aud", "iss", "exp", "iat"] {
            if let value = jws.payload[claim] { members.append((claim, value)) }
        }
        members.append(("token_type", "Bearer"))
        if let details = jws.payload["authorization_details"] { members.append(("authorization_details", details)) }
        return members
    }

    /// RFC 7662 §2.2 / SPEC §5.1: the client the token was issued to, or one with a client grant for one of its
    /// audiences (the API that receives it).
    private func mayIntrospect(_ jws: CompactJWS, issuedTo clientID: String, caller: Client) async throws -> Bool {
        if clientID == caller.clientID { return true }
        for audience in jws.audiences
        where try await tenant.clientGrant(clientID: caller.clientID, audience: audience) != nil {
            return true
        }
        return false
    }

    /// A user's token is active only while the user exists and is not blocked; a client's (`client_credentials`,
    /// `sub` = `{client_id}@clients`) while the client exists.
    private func isActiveSubject(_ subject: String, of jws: CompactJWS) async throws -> Bool {
        if jws.payload["gty"]?.stringValue == "client-credentials" {
            guard let clientID = jws.payload["client_id"]?.stringValue else { return false }
            return try await tenant.client(id: clientID) != nil
        }
        guard let record = try await users.user(id: subject) else { return false }
        return !record.user.blocked
    }

    /// The members of an active refresh token's answer, or `nil`.
    private func refreshToken(_ token: String, caller: Client) async throws -> [(String, JSONValue)]? {
        let now = clock.now()
        guard let record = try await refreshTokens.refreshToken(hash: SecretHash.sha256Hex(token)),
            record.clientID == caller.clientID, record.usedAt == nil,
            case .valid = record.nonRotatingUse(at: now),
            let user = try await users.user(id: record.userID), !user.user.blocked
        else { return nil }
        var members: [(String, JSONValue)] = [
            ("active", true),
            ("scope", .string(record.scope.joined(separator: " "))),
            ("client_id", .string(record.clientID)),
            ("sub", .string(record.userID)),
        ]
        if let audience = record.audience { members.append(("aud", .string(audience))) }
        members.append(("iss", .string(issuer)))
        if let expiresAt = record.expiresAt {
            members.append(("exp", .number(expiresAt.timeIntervalSince1970.rounded(.down))))
        }
        members += [
            ("iat", .number(record.createdAt.timeIntervalSince1970.rounded(.down))),
            ("token_type", "refresh_token"),
        ]
        if let details = record.authorizationDetails { members.append(("authorization_details", details)) }
        return members
    }
}
