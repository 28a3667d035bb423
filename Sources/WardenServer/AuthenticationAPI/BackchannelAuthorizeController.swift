import HTTPTypes
import Hummingbird
import WardenCore
import WardenWire

/// `POST /bc-authorize` (CIBA Core §7, RFC 9396, SPEC §6.1): authenticates the client, checks every parameter,
/// stores the request and starts its delivery. Errors follow CIBA Core §13 (400, 401 `invalid_client`, 403
/// `access_denied`, 429 for the per-user limit); each outcome is logged (`ciba_start_succeeded/failed`).
struct BackchannelAuthorizeController: Sendable {
    let clients: ClientAuthenticator
    let scopes: ScopePolicy
    let service: BackchannelService
    /// Where the user a `login_hint` names is read.
    let users: any UserStore
    /// The APIs an `audience` may name.
    let tenant: TenantCache
    let eventLog: EventLog
    let clock: any WardenClock
    /// `{issuer}` with its trailing slash: the `iss` a `login_hint` must name (SPEC §6.1).
    let issuer: String
    /// `--trusted-proxies`: whose `X-Forwarded-For` names the caller.
    let trustedProxies: [CIDR]

    /// CIBA Core §7.1: `requested_expiry` bounds (SPEC §6.1) and the default.
    static let expiryRange = 1...259_200
    static let defaultExpiry = 300
    /// The longest `client_notification_token` (CIBA Core §7.1: at most 1024 characters).
    static let maximumNotificationTokenLength = 1024

    /// The endpoint starting, through `service`, the requests of the clients `clients` authenticates for the
    /// users of `users`, with the scopes `scopes` grants; outcomes are logged to `eventLog`.
    init(
        clients: ClientAuthenticator, scopes: ScopePolicy, service: BackchannelService, users: any UserStore,
        tenant: TenantCache, eventLog: EventLog, clock: any WardenClock, issuer: String, trustedProxies: [CIDR]
    ) {
        self.clients = clients
        self.scopes = scopes
        self.service = service
        self.users = users
        self.tenant = tenant
        self.eventLog = eventLog
        self.clock = clock
        self.issuer = issuer
        self.trustedProxies = trustedProxies
    }

    func addRoutes(to router: Router<WardenRequestContext>) {
        router.post("bc-authorize") { request, context in try await authorize(request, context: context) }
    }

    func authorize(_ request: Request, context: WardenRequestContext) async throws -> Response {
        let parameters = try await RequestParameters.read(from: request)
        let ip = ClientAddress.ip(of: request, context: context, trusted: trustedProxies)
        var event = LogEvent(
            date: clock.now(), type: .cibaStartFailed, clientID: parameters["client_id"], ip: ip,
            userAgent: request.headers[.userAgent], audience: parameters["audience"], scope: parameters["scope"])
        do {
            let record = try await clients.authenticate(
                headers: request.headers, parameters: parameters, credentialsRequired: true)
            event.clientID = record.client.clientID
            event.clientName = record.client.name
            let start = try await validate(parameters, client: record.client)
            event.userID = start.user.userID
            event.userName = start.user.email
            let authRequestID = try await service.start(start)
            event.type = .cibaStartSucceeded
            event.description = "Backchannel authentication request started (\(start.requestedExpiry) s)"
            event.scope = start.scope.joined(separator: " ")
            eventLog.record(event)
            let body = JSONValue.serializedObject([
                ("auth_req_id", .string(authRequestID)),
                ("expires_in", .number(Double(start.requestedExpiry))),
                ("interval", .number(Double(BackchannelPollTracker.initialInterval))),
            ])
            return .json(body, noStore: true)
        } catch let error as OAuthError {
            event.description = error.description
            eventLog.record(event)
            throw error
        }
    }

    /// Every rule of SPEC §6.1, in the order of its table.
    private func validate(_ parameters: RequestParameters, client: Client) async throws -> BackchannelService.Start {
        guard client.allows(.ciba) else {
            throw OAuthError(.unauthorizedClient, "Grant type '\(GrantType.ciba.rawValue)' not allowed for the client.")
        }
        guard let hint = parameters["login_hint"] else {
            throw OAuthError.invalidRequest("Missing required parameter: login_hint")
        }
        let subject = try LoginHint(parsing: hint, issuer: issuer).subject
        guard let user = try await users.user(id: subject)?.user else {
            throw OAuthError(.unknownUserID, "The login_hint names an unknown user")
        }
        guard !user.blocked else { throw OAuthError(.accessDenied, "The user is blocked", status: 403) }
        let audience = try await audience(parameters)
        let requestedScope = try scope(parameters, audience: audience)
        let bindingMessage = try BindingMessage.validated(parameters["binding_message"])
        let expiry = try requestedExpiry(parameters)
        let details = try parameters["authorization_details"].map { value throws(OAuthError) in
            try AuthorizationDetails.parse(
                value, registeredTypes: audience.map { Set($0.authorizationDetails.map(\.type)) })
        }
        let notificationToken = try clientNotificationToken(parameters, client: client)
        return BackchannelService.Start(
            client: client, user: user,
            scope: try await scopes.grantedScopes(requestedScope, audience: audience?.identifier, userID: user.userID),
            audience: audience?.identifier, bindingMessage: bindingMessage, authorizationDetails: details,
            requestedExpiry: expiry, clientNotificationToken: notificationToken)
    }

    /// `audience` or its RFC 8707 synonym `resource` (SPEC §5): a registered API, never the system Management API.
    private func audience(_ parameters: RequestParameters) async throws -> ResourceServer? {
        try await ResourceIndicator.userFacingAPI(try ResourceIndicator.requested(parameters), in: tenant)
    }

    /// The requested scopes, in order, without duplicates: `openid` unless an API is named; each one an OIDC
    /// scope or one of the API's.
    private func scope(_ parameters: RequestParameters, audience: ResourceServer?) throws(OAuthError) -> [String] {
        let requested = (parameters["scope"] ?? "").split(separator: " ").map(String.init)
            .reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        guard requested.contains("openid") || audience != nil else {
            throw .invalidRequest("openid scope must be requested")
        }
        let known = ScopePolicy.openIDScopes.union(audience?.scopeValues ?? [])
        if let unknown = requested.first(where: { !known.contains($0) }) {
            throw OAuthError(.invalidScope, "Unknown scope: \(unknown)")
        }
        return requested
    }

    private func requestedExpiry(_ parameters: RequestParameters) throws(OAuthError) -> Int {
        guard let value = parameters["requested_expiry"] else { return Self.defaultExpiry }
        guard !value.isEmpty, value.count <= 6, value.first != "0", value.allSatisfy({ ("0"..."9").contains($0) }),
            let expiry = Int(value), Self.expiryRange.contains(expiry)
        else {
            throw .invalidRequest(
                "requested_expiry must be an integer from \(Self.expiryRange.lowerBound) to \(Self.expiryRange.upperBound)"
            )
        }
        return expiry
    }

    /// CIBA Core §7.1: required in ping mode, at most 1024 characters.
    private func clientNotificationToken(
        _ parameters: RequestParameters, client: Client
    ) throws(OAuthError) -> String? {
        let token = parameters["client_notification_token"]
        if client.backchannelTokenDeliveryMode == .ping, token == nil {
            throw .invalidRequest("client_notification_token is required for a ping-mode client")
        }
        if let token, token.count > Self.maximumNotificationTokenLength {
            throw .invalidRequest(
                "client_notification_token must be at most \(Self.maximumNotificationTokenLength) characters")
        }
        return token
    }
}
