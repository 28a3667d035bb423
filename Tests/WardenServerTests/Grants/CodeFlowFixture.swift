import Foundation
import HTTPTypes
import HummingbirdTesting
import JWTKit
import NIOCore
import Testing
import WardenCore
import WardenServer
import WardenTesting
import WardenWire

/// A tenant with one user, one SSO session and one client, and the codes `/authorize` would store for them
/// (SPEC §5), so that the token side of the code flow is tested without the front channel.
struct CodeFlowFixture {
    /// RFC 7636 Appendix B.
    static let verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
    static let challenge = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
    static let redirectURI = "https://app.example.com/callback"

    let warden: TestWarden
    let user: User
    let session: Session
    let client: (id: String, secret: String)
    let isPublic: Bool

    /// A confidential client (or a public one with `token_endpoint_auth_method: none`) allowed `grantTypes`.
    static func make(
        public isPublic: Bool = false, grantTypes: [GrantType] = [.authorizationCode, .refreshToken],
        warden existing: TestWarden? = nil, configure: (inout Client) -> Void = { _ in }
    ) async throws -> CodeFlowFixture {
        let warden: TestWarden
        if let existing { warden = existing } else { warden = try await TestWarden.make() }
        let client = try await warden.makeClient(grantTypes: grantTypes) {
            $0.callbacks = [redirectURI]
            if isPublic { $0.tokenEndpointAuthMethod = TokenEndpointAuthMethod.none }
            configure(&$0)
        }
        let now = warden.clock.now()
        var user = User(
            userID: "auth0|" + RandomToken.identifier(prefix: "", length: 16),
            email: "alice-\(RandomToken.identifier(prefix: "", length: 8).lowercased())@example.com", createdAt: now)
        user.name = "Alice Example"
        user.givenName = "Alice"
        user.familyName = "Example"
        user.nickname = "alice"
        user.picture = "https://example.com/alice.png"
        user.emailVerified = true
        try await warden.runtime.store.insertUser(UserRecord(user: user, passwordHash: nil))
        let session = Session(
            id: RandomToken.identifier(prefix: "sid_"), userID: user.userID, createdAt: now,
            authTime: now.addingTimeInterval(-120), lastActiveAt: now, expiresAt: now.addingTimeInterval(86400),
            idleExpiresAt: now.addingTimeInterval(3600), method: "password")
        try await warden.runtime.store.insertSession(session, secretHash: SecretHash.sha256Hex(RandomToken.make()))
        return CodeFlowFixture(warden: warden, user: user, session: session, client: client, isPublic: isPublic)
    }

    /// Stores a code as `/authorize` does: the SHA-256 of the code, a JSON ``AuthorizationCodeGrant``, 60 s.
    func code(
        scope: [String] = ["openid", "profile", "email"], audience: String? = nil, nonce: String? = "n-0S6_WzA2Mj",
        challenge: String? = CodeFlowFixture.challenge, clientID: String? = nil
    ) async throws -> String {
        let code = RandomToken.make()
        let grant = AuthorizationCodeGrant(
            clientID: clientID ?? client.id, redirectURI: Self.redirectURI, codeChallenge: challenge,
            userID: user.userID, sessionID: session.id, scope: scope, audience: audience, nonce: nonce,
            authTime: session.authTime, familyID: RandomToken.identifier(prefix: "fam_"))
        let payload = String(decoding: try JSONEncoder().encode(grant), as: UTF8.self)
        try await warden.runtime.store.putArtefact(
            kind: AuthorizationCodeGrant.artefactKind, hash: SecretHash.sha256Hex(code), payload: payload,
            expiresAt: warden.clock.now().addingTimeInterval(AuthorizationCodeGrant.lifetime))
        return code
    }

    /// `client_id`, plus `client_secret` for a confidential client.
    var credentials: [(String, String)] {
        isPublic ? [("client_id", client.id)] : [("client_id", client.id), ("client_secret", client.secret)]
    }

    /// Exchanges `code` at `/oauth/token`; `nil` leaves a parameter out.
    func exchange(
        _ code: String?, http: some TestClientProtocol, verifier: String? = CodeFlowFixture.verifier,
        redirectURI: String? = CodeFlowFixture.redirectURI, credentials: [(String, String)]? = nil
    ) async throws -> TestResponse {
        var form: [(String, String)] = [("grant_type", "authorization_code")] + (credentials ?? self.credentials)
        if let code { form.append(("code", code)) }
        if let redirectURI { form.append(("redirect_uri", redirectURI)) }
        if let verifier { form.append(("code_verifier", verifier)) }
        return try await http.postForm("/oauth/token", form)
    }

    /// A successful exchange's JSON body.
    func tokens(
        scope: [String] = ["openid", "profile", "email"], audience: String? = nil, http: some TestClientProtocol,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> JSONValue {
        let response = try await exchange(try await code(scope: scope, audience: audience), http: http)
        #expect(response.status == .ok, "\(response.json)", sourceLocation: sourceLocation)
        return response.json
    }

    /// Redeems a refresh token.
    func refresh(
        _ token: String, http: some TestClientProtocol, scope: String? = nil, credentials: [(String, String)]? = nil
    ) async throws -> TestResponse {
        var form: [(String, String)] =
            [("grant_type", "refresh_token"), ("refresh_token", token)] + (credentials ?? self.credentials)
        if let scope { form.append(("scope", scope)) }
        return try await http.postForm("/oauth/token", form)
    }

    /// The events of `type` in this tenant's log.
    func logs(_ type: String) async throws -> [LogEvent] {
        await warden.flushLogs()
        return try await warden.runtime.store.searchLogs(
            LogFilter(terms: ["type": [type]]), ascending: true,
            page: PageRequest(page: 0, perPage: 50)
        ).items
    }

    /// The keys of `/.well-known/jwks.json`, for verifying tokens with jwt-kit (a third-party library).
    static func publishedKeys(http: some TestClientProtocol) async throws -> JWTKeyCollection {
        let jwks = try await http.execute(uri: "/.well-known/jwks.json", method: .get)
        return try await JWTKeyCollection().add(jwksJSON: String(buffer: jwks.body))
    }
}

/// The claims of an RFC 9068 access token issued for a user.
struct UserAccessClaims: JWTPayload {
    var iss: IssuerClaim
    var sub: SubjectClaim
    var aud: AudienceClaim
    var exp: ExpirationClaim
    var iat: IssuedAtClaim
    var scope: String
    var clientID: String

    enum CodingKeys: String, CodingKey {
        case iss, sub, aud, exp, iat, scope
        case clientID = "client_id"
    }

    func verify(using algorithm: some JWTAlgorithm) async throws {
        try exp.verifyNotExpired()
    }
}
