import Foundation
import WardenCore
import WardenWire

/// Native-to-Web SSO, the exchange (SPEC §8): a native client trades its refresh token for a session transfer
/// token, in either request form:
/// - the reference SDK's, `grant_type=refresh_token` with `refresh_token` and
///   `audience=urn:{issuer host}:session_transfer` (routed here by ``GrantRegistry`` on that audience);
/// - RFC 8693's token exchange (§2.1), `grant_type=urn:ietf:params:oauth:grant-type:token-exchange` with
///   `subject_token_type=urn:ietf:params:oauth:token-type:refresh_token`, `subject_token` and the same `audience`.
///
/// The client must have `session_transfer.can_create_session_transfer_token` (`unauthorized_client`); the refresh
/// token is redeemed as by `grant_type=refresh_token` (``RefreshTokenGrant/redeem(_:request:)``: a rotating
/// client's token is used up and reuse revokes the family). The answer (RFC 8693 §2.2.1) carries the token as
/// `access_token`, `issued_token_type`, `token_type: N_A`, `expires_in: 60`, an ID token (the reference iOS SDK
/// requires one) and, for a rotating client, the successor refresh token. `sertft` / `fertft` are logged with
/// the session transfer audience.
struct SessionTransferGrant: GrantHandler {
    /// RFC 8693 §2.2.1 `issued_token_type` of a session transfer token.
    static let issuedTokenType = "urn:auth0:params:oauth:token-type:session_transfer_token"
    /// RFC 8693 §3: the `subject_token_type` of a refresh token.
    static let refreshTokenType = "urn:ietf:params:oauth:token-type:refresh_token"

    let refresh: RefreshTokenGrant
    /// `refresh_token` for the SDK's form, `urn:ietf:params:oauth:grant-type:token-exchange` for RFC 8693's: the
    /// client must be allowed it (SPEC §4).
    let grantType: GrantType
    /// Public (native) clients exchange with `client_id` alone, as they refresh.
    var requiresClientAuthentication: Bool { false }
    var failureEvent: LogEventType { .refreshExchangeFailed }

    /// Where session transfer tokens are stored, as artefacts.
    let transferTokens: any ArtefactStore
    /// Describes the creating device's network (SPEC §8 device binding).
    let ipIntelligence: IPIntelligence
    let clock: any WardenClock
    /// `urn:{issuer host}:session_transfer` (SPEC §8).
    let audience: String

    private var issuer: TokenIssuer { refresh.issuer }

    /// A handler of the `grantType` form that redeems refresh tokens through `refresh` (and issues through its
    /// ``TokenIssuer``), storing the session transfer tokens in `transferTokens`; `issuer` gives the audience.
    init(
        refresh: RefreshTokenGrant, grantType: GrantType, transferTokens: any ArtefactStore,
        ipIntelligence: IPIntelligence, clock: any WardenClock, issuer: URL
    ) {
        self.refresh = refresh
        self.grantType = grantType
        self.transferTokens = transferTokens
        self.ipIntelligence = ipIntelligence
        self.clock = clock
        self.audience = SessionTransferToken.audience(issuer: issuer)
    }

    /// Whether a `grant_type=refresh_token` request asks for a session transfer token (the SDK's form).
    func isRequested(by parameters: RequestParameters) -> Bool {
        parameters["audience"] == audience
    }

    func exchange(_ request: TokenRequest) async throws -> TokenResponse {
        let client = request.client.client
        // A registered client never does (SPEC §13), whatever its settings say.
        guard client.registration == nil, let settings = client.sessionTransfer, settings.canCreateSessionTransferToken
        else {
            throw OAuthError(.unauthorizedClient, "The client may not create session transfer tokens")
        }
        let context = try await refresh.redeem(try subjectToken(request), request: request)
        let record = context.token
        let grant = try refresh.userGrant(context, client: client, scope: record.scope)
        let token = RandomToken.make()
        let transfer = SessionTransferToken(
            userID: record.userID, clientID: client.clientID, scope: record.scope, familyID: record.familyID,
            refreshTokenHash: record.tokenHash, binding: DeviceBinding(settings),
            creator: .init(ip: request.ip, userAgent: request.userAgent, ipIntelligence: ipIntelligence))
        try await transferTokens.putArtefact(
            kind: SessionTransferToken.artefactKind, hash: SecretHash.sha256Hex(token),
            payload: String(decoding: try JSONEncoder().encode(transfer), as: UTF8.self),
            expiresAt: clock.now().addingTimeInterval(Double(SessionTransferToken.lifetime)))
        var members: [(String, JSONValue)] = [
            ("access_token", .string(token)),
            ("issued_token_type", .string(Self.issuedTokenType)),
            ("token_type", "N_A"),
            ("expires_in", .number(Double(SessionTransferToken.lifetime))),
            ("id_token", .string(try await issuer.idToken(grant, accessToken: token))),
        ]
        if RefreshTokenGrant.rotates(client) {
            members.append(("refresh_token", .string(try await issuer.storeRefreshToken(grant, scope: record.scope))))
        }
        issuer.count(grantType)
        issuer.log(
            .refreshExchangeSucceeded, request: request, clientID: client.clientID, audience: audience,
            scope: record.scope.joined(separator: " "), userID: record.userID)
        return TokenResponse(members: members)
    }

    /// The refresh token the request presents. RFC 8693's form must name a refresh token (`invalid_request`
    /// otherwise) and the session transfer audience (`invalid_target`, RFC 8693 §2.2.2).
    private func subjectToken(_ request: TokenRequest) throws(OAuthError) -> String {
        guard grantType == .tokenExchange else { return try request.require("refresh_token") }
        let type = try request.require("subject_token_type")
        guard type == Self.refreshTokenType else {
            throw .invalidRequest("Unsupported subject_token_type: \(type). Use \(Self.refreshTokenType)")
        }
        let subject = try request.require("subject_token")
        guard try request.require("audience") == audience else {
            throw OAuthError("invalid_target", "The only audience of a token exchange is \(audience)")
        }
        return subject
    }
}
