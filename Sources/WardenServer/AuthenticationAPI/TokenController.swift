import HTTPTypes
import Hummingbird
import WardenCore
import WardenWire

/// `POST /oauth/token` (RFC 6749 §3.2): parses the body, authenticates the client, checks the client may use
/// the grant, and dispatches to the grant's handler. Every response carries `Cache-Control: no-store`.
struct TokenController: Sendable {
    let runtime: WardenRuntime
    let grants: GrantRegistry
    let clients: ClientAuthenticator

    init(runtime: WardenRuntime) {
        self.runtime = runtime
        self.grants = GrantRegistry(runtime: runtime)
        self.clients = ClientAuthenticator(runtime: runtime)
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
        let ip = ClientAddress.ip(of: request, context: context, trusted: runtime.trustedProxies)
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
            return .json(JSONValue.serializedObject(response.members), noStore: true)
        } catch let error as OAuthError where handler.logs(error) {
            runtime.eventLog.record(
                LogEvent(
                    date: runtime.clock.now(), type: handler.failureEvent, description: error.description,
                    clientID: parameters["client_id"], ip: ip, userAgent: userAgent,
                    audience: parameters["audience"] ?? parameters["resource"], scope: parameters["scope"]))
            throw error
        }
    }
}
