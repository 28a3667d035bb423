import Foundation
import Hummingbird
import WardenCore
import WardenWire

/// Native-to-Web SSO, the consumption (SPEC §8): a web client's `GET /authorize` presenting a session transfer
/// token — in the cookie `auth0_session_transfer_token` or the query parameter `session_transfer_token`, each only
/// when the client's `allowed_authentication_methods` has that method, the cookie's alone when both arrive.
///
/// The presented token is consumed atomically whatever comes next, so it can never be tried twice. A valid,
/// unexpired token whose device binding holds and whose user may still sign in runs the post-login check: a
/// denial ends the flow with an `access_denied` error redirect; otherwise an SSO session (method
/// `session_transfer`, recording the refresh-token family for cascade revocation) replaces the browser's session
/// and the flow continues without a login form — through the second factor when SPEC §12 asks for one. Any other
/// token is ignored, as if none had been sent.
struct SessionTransferConsumer: Sendable {
    static let cookieName = "auth0_session_transfer_token"
    static let queryParameter = "session_transfer_token"
    /// `Session.method` of a session a transfer began.
    static let sessionMethod = "session_transfer"

    let flow: AuthorizationFlow
    /// Where session transfer tokens are consumed, as artefacts.
    let transferTokens: any ArtefactStore
    let users: any UserStore
    /// Where the source refresh-token family is checked for revocation.
    let refreshTokens: any RefreshTokenStore
    /// Where a session made from a family revoked meanwhile is deleted again.
    let sessions: any SessionStore
    let postLogin: PostLoginCheck
    let secondFactor: SecondFactor
    let eventLog: EventLog
    let clock: any WardenClock

    /// A consumer of the tokens of `transferTokens` that signs in through `flow` after `postLogin` allows it and
    /// `secondFactor` had what it asks for.
    init(
        flow: AuthorizationFlow, transferTokens: any ArtefactStore, users: any UserStore,
        refreshTokens: any RefreshTokenStore, sessions: any SessionStore, postLogin: PostLoginCheck,
        secondFactor: SecondFactor, eventLog: EventLog, clock: any WardenClock
    ) {
        self.secondFactor = secondFactor
        self.flow = flow
        self.transferTokens = transferTokens
        self.users = users
        self.refreshTokens = refreshTokens
        self.sessions = sessions
        self.postLogin = postLogin
        self.eventLog = eventLog
        self.clock = clock
    }

    /// The answer to `authorization` decided by a presented session transfer token, or `nil` to go on as without
    /// one (none presented, or refused).
    func respond(
        to authorization: AuthorizationRequest, client: Client, query: QueryParameters, request: Request,
        context: WardenRequestContext
    ) async throws -> Response? {
        guard let presented = Self.presentedToken(query: query, request: request, client: client),
            case .consumed(let payload) = try await transferTokens.consumeArtefact(
                kind: SessionTransferToken.artefactKind, hash: SecretHash.sha256Hex(presented),
                now: clock.now())
        else { return nil }
        let token = try JSONDecoder().decode(SessionTransferToken.self, from: Data(payload.utf8))
        let check = postLogin
        let consumer = check.requestInfo(request, context: context)
        guard token.binding.isSatisfied(creator: token.creator.requestInfo, consumer: consumer),
            let record = try await users.user(id: token.userID), !record.user.blocked
        else { return nil }
        let event = LoginEvent(
            request: consumer,
            sessionTransferToken: .init(
                clientID: token.clientID, scope: token.scope, request: token.creator.requestInfo),
            user: record.user, client: client)
        let decision = try await check.decide(event)
        if case .deny(let reason) = decision {
            return authorization.responseTarget.response(OAuthError(.accessDenied, reason))
        }
        let (session, cookie) = try await flow.sessions.begin(
            userID: record.user.userID, method: Self.sessionMethod, sourceFamilyID: token.familyID)
        // The family is checked once the session exists: a revocation before this point is seen here, one after it
        // ends the session by cascade. No session comes from a family revoked before it was made.
        guard try await refreshTokens.refreshToken(hash: token.refreshTokenHash)?.revokedAt == nil else {
            _ = try await sessions.deleteSession(id: session.id)
            return nil
        }
        _ = try await flow.sessions.end(request)
        logLogin(of: record.user, client: client, request: consumer, authorization: authorization)
        let login = SecondFactor.Login(
            user: record.user, client: client, authorization: authorization, returnPath: nil, session: session,
            firstFactor: .credentials, ruleRequiresMFA: decision == .requireMFA, recordsLogin: false)
        return try await secondFactor.proceed(login, cookies: [cookie], request: request, context: context)
    }

    /// The token to evaluate: the cookie's when cookies are allowed and one is sent, else the query's when
    /// allowed.
    private static func presentedToken(query: QueryParameters, request: Request, client: Client) -> String? {
        let methods = client.sessionTransfer?.allowedAuthenticationMethods ?? []
        if methods.contains("cookie"), let value = request.cookies[cookieName]?.value, !value.isEmpty {
            return value
        }
        return methods.contains("query") ? query[queryParameter] : nil
    }

    /// `s` (SPEC §10) for a login by session transfer.
    private func logLogin(
        of user: User, client: Client, request: LoginEvent.RequestInfo, authorization: AuthorizationRequest
    ) {
        eventLog.record(
            LogEvent(
                date: clock.now(), type: .loginSuccess, description: "Successful login by session transfer",
                clientID: client.clientID, clientName: client.name, ip: request.ip, userAgent: request.userAgent,
                userID: user.userID, userName: user.email, audience: authorization.audience,
                scope: authorization.scope.joined(separator: " "),
                details: ["method": .string(Self.sessionMethod)]))
    }
}

extension Session {
    /// SPEC §8 `allow_refresh_token`: a session a transfer began grants `offline_access` (and so a refresh token,
    /// SPEC §3) only to a client that allows it.
    func grantable(_ scope: [String], to client: Client) -> [String] {
        guard method == SessionTransferConsumer.sessionMethod, client.sessionTransfer?.allowRefreshToken != true
        else { return scope }
        return scope.filter { $0 != "offline_access" }
    }
}
