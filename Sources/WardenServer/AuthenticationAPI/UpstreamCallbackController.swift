import Foundation
import HTTPTypes
import Hummingbird
import WardenCore
import WardenWire

/// `GET|POST {issuer}login/callback` (SPEC §15 "Sign-in"): where every upstream answers. A state that is not
/// this browser's live one is the 400 error page; any other failure ends at the application's `redirect_uri`
/// with `access_denied` (or `temporarily_unavailable`), logs `f`, and changes no user. A success signs the person
/// in as the identity's user: post-login rules, then the second factor (SPEC §12), as a password login does.
struct UpstreamCallbackController: Sendable {
    let federation: FederatedLogin
    let flow: AuthorizationFlow
    let signIn: FederatedSignIn
    /// Ends `/u/link`'s proofs through a linked connection.
    let links: AccountLinkController
    let tenant: TenantCache
    let eventLog: EventLog
    let clock: any WardenClock
    let database: any WardenStore
    let trustedProxies: [CIDR]

    func addRoutes(to router: Router<WardenRequestContext>) {
        router.get("login/callback") { request, context in
            await HostedPages.respond(context, store: database) {
                try await callback(Self.fields(QueryParameters(request.uri.query)), request, context: context)
            }
        }
        router.post("login/callback") { request, context in
            await HostedPages.respond(context, store: database) {
                try await callback(try await HostedPages.readForm(request).values, request, context: context)
            }
        }
    }

    /// The single-valued parameters of a callback.
    private static func fields(_ query: QueryParameters?) -> [String: String] {
        var fields: [String: String] = [:]
        for name in ["state", "code", "error", "error_description", "iss", "id_token"] {
            if let value = query?[name] { fields[name] = value }
        }
        return fields
    }

    private func callback(_ fields: [String: String], _ request: Request, context: WardenRequestContext)
        async throws -> Response
    {
        guard let id = fields["state"],
            let state = try await federation.states.consume(id, browser: UpstreamBindingCookie.value(in: request))
        else { throw ErrorPage.unknownUpstreamState }
        switch state.purpose {
        case .trial?: return try await trial(fields, state: state)
        case .linkProof?: return try await links.proof(fields, state: state, request: request, context: context)
        case nil: break
        }
        guard let transaction = try await flow.transactions.peek(state.transactionID, stage: .login),
            let authorization = transaction.request,
            let client = try await tenant.client(id: transaction.clientID)?.client,
            let connection = try await federation.connections.connection(id: state.connectionID)
        else { throw ErrorPage.expiredTransaction }
        let identity: UpstreamUserProfile
        do {
            identity = try await federation.upstream(for: connection).identity(from: fields, state: state)
        } catch let failure as UpstreamFailure {
            _ = try await flow.transactions.consume(state.transactionID, stage: .login)
            log(.loginFailure, failure.description, client: client, connection: connection, request, context)
            return authorization.responseTarget.response(
                OAuthError(.init(rawValue: failure.error), failure.description))
        }
        let existing = try await federation.existingUser(for: identity, of: connection)
        if existing == nil, let candidate = try await federation.linkCandidate(for: identity) {
            guard try await flow.transactions.consume(state.transactionID, stage: .login) != nil else {
                throw ErrorPage.expiredTransaction
            }
            return try await offerLink(
                identity, of: connection, to: candidate.user, authorization: authorization, client: client)
        }
        var user: User
        if let existing {
            user = existing
        } else {
            user = try await federation.newUser(
                federation.storedIdentity(identity, of: connection), attributes: identity.profile.rootAttributes)
        }
        guard !user.blocked else {
            _ = try await flow.transactions.consume(state.transactionID, stage: .login)
            log(.loginFailure, "The user is blocked", client: client, connection: connection, request, context)
            return authorization.responseTarget.response(OAuthError(.accessDenied, "The user is blocked"))
        }
        guard try await flow.transactions.consume(state.transactionID, stage: .login) != nil else {
            throw ErrorPage.expiredTransaction
        }
        return try await signIn.finish(
            FederatedSignIn.Login(
                user: user, client: client, authorization: authorization, connection: connection,
                identityUserID: identity.userID.description, upstreamIDToken: identity.tokens?.idToken),
            request: request, context: context)
    }

    /// The end of the console's "Try" (SPEC §15 "Console"): what the upstream proved, kept for the console page
    /// it returns to; nobody is signed in, no user made or changed.
    private func trial(_ fields: [String: String], state: UpstreamLoginState) async throws -> Response {
        guard let connection = try await federation.connections.connection(id: state.connectionID) else {
            throw ErrorPage.expiredTransaction
        }
        var outcome: ConnectionTrials.Outcome
        do {
            outcome = ConnectionTrials.outcome(
                try await federation.upstream(for: connection).identity(from: fields, state: state), of: connection)
        } catch let failure as UpstreamFailure {
            outcome = ConnectionTrials.Outcome(connectionID: connection.id, failure: failure.description)
        }
        let id = try await federation.trials.keep(outcome)
        return Response(
            status: .seeOther,
            headers: [
                .location: flow.basePath + "admin/connections/\(connection.id)/try?result=\(id)",
                .cacheControl: "no-store",
            ])
    }

    /// Parks a first login whose verified e-mail an existing account has verified too and sends the person to
    /// `/u/link` (SPEC §15 "Linking"): nothing is linked or created until they choose.
    private func offerLink(
        _ identity: UpstreamUserProfile, of connection: Connection, to user: User,
        authorization: AuthorizationRequest, client: Client
    ) async throws -> Response {
        let stored = try federation.storedIdentity(identity, of: connection)
        var transaction = LoginTransaction(authorization, returnPath: nil, clientID: client.clientID)
        transaction.link = PendingLink(
            userID: user.userID, connectionID: connection.id, identityUserID: identity.userID.jsonValue,
            profileData: stored.profileData, sealedTokens: stored.sealedTokens,
            upstreamIDToken: identity.tokens?.idToken)
        let id = try await flow.transactions.start(transaction, stage: .link)
        let response = Response(
            status: .seeOther,
            headers: [
                .location: flow.basePath + "u/link?state=" + PercentEncoding.unreserved(id),
                .cacheControl: "no-store",
            ])
        // Only this browser holds the token the form must post (``AccountLinkController``).
        return flow.withCSRFCookie(response, token: transaction.csrf)
    }

    /// Logs a refused federated login with the connection's fields (SPEC §15 "Logs").
    private func log(
        _ type: LogEventType, _ message: String, client: Client, connection: Connection, _ request: Request,
        _ context: WardenRequestContext
    ) {
        eventLog.record(
            LogEvent(
                date: clock.now(), type: type, description: "Failed login through \(connection.name)",
                clientID: client.clientID, clientName: client.name,
                ip: ClientAddress.ip(of: request, context: context, trusted: trustedProxies),
                userAgent: request.headers[.userAgent],
                details: SecondFactor.LoginConnection(connection, identityUserID: nil).details.merging(
                    ["error": ["message": .string(message)]]) { $1 }))
    }
}
