import Foundation
import HTTPTypes
import Hummingbird
import Logging
import WardenCore
import WardenWire

/// `POST /oauth/token` (RFC 6749 §3.2): parses the body, authenticates the client, checks the client may use
/// the grant, and dispatches to the grant's handler. Every response carries `Cache-Control: no-store`.
struct TokenController: Sendable {
    let grants: GrantRegistry
    let clients: ClientAuthenticator
    /// Where a registered client's expiry moves with each token (SPEC §13).
    let registrations: any ClientStore
    /// Where failed exchanges are logged.
    let eventLog: EventLog
    let clock: any WardenClock
    /// `--trusted-proxies`: whose `X-Forwarded-For` names the caller.
    let trustedProxies: [CIDR]

    /// The endpoint of `grants`, for the clients `clients` authenticates; failures are logged to `eventLog`, and
    /// a token keeps a registered client in `registrations`.
    init(
        grants: GrantRegistry, clients: ClientAuthenticator, registrations: any ClientStore, eventLog: EventLog,
        clock: any WardenClock, trustedProxies: [CIDR]
    ) {
        self.grants = grants
        self.clients = clients
        self.registrations = registrations
        self.eventLog = eventLog
        self.clock = clock
        self.trustedProxies = trustedProxies
    }

    func addRoutes(to router: Router<WardenRequestContext>) {
        router.post("oauth/token") { request, context in try await token(request, context: context) }
    }

    func token(_ request: Request, context: WardenRequestContext) async throws -> Response {
        let parameters = try await RequestParameters.read(from: request)
        guard let grantType = parameters["grant_type"] else {
            throw OAuthError.invalidRequest("Missing required parameter: grant_type")
        }
        guard let handler = grants.handler(for: GrantType(rawValue: grantType), parameters: parameters) else {
            throw OAuthError(.unsupportedGrantType, "Unsupported grant type: \(grantType)")
        }
        let ip = ClientAddress.ip(of: request, context: context, trusted: trustedProxies)
        let userAgent = request.headers[.userAgent]
        do {
            let client = try await clients.authenticate(
                headers: request.headers, parameters: parameters,
                credentialsRequired: handler.requiresClientAuthentication)
            guard client.client.allows(handler.grantType) else {
                throw OAuthError(.unauthorizedClient, "Grant type '\(grantType)' not allowed for the client.")
            }
            let response = try await handler.exchange(
                TokenRequest(
                    parameters: parameters, client: client, ip: ip,
                    userAgent: userAgent))
            await keepRegistration(of: client, context: context)
            return .json(JSONValue.serializedObject(response.members), noStore: true)
        } catch let error as OAuthError where handler.logs(error) {
            eventLog.record(
                LogEvent(
                    date: clock.now(), type: handler.failureEvent, description: error.description,
                    clientID: parameters["client_id"], ip: ip, userAgent: userAgent,
                    audience: parameters["audience"] ?? parameters["resource"], scope: parameters["scope"]))
            throw error
        }
    }

    /// A token keeps a registered client for another 30 days (SPEC §13). Written only when it moves the expiry
    /// this node last read by more than a day, and never failing the token already issued.
    private func keepRegistration(of record: ClientRecord, context: WardenRequestContext) async {
        guard let expiresAt = record.expiresAt else { return }
        let until = clock.now().addingTimeInterval(ClientRegistration.unusedLifetime)
        guard until.timeIntervalSince(expiresAt) > 86400 else { return }
        do {
            try await registrations.extendClientExpiry(id: record.client.clientID, to: until)
        } catch {
            context.logger.warning("could not extend a registered client", metadata: ["error": "\(error)"])
        }
    }
}
