import Foundation
import HTTPTypes
import Hummingbird
import WardenCore
import WardenWire

/// Verifies the Management API Bearer token (SPEC §9): an access token Warden signed, for the audience
/// `{issuer}api/v2/`, unexpired. Its scopes go into the context; each route checks the one it needs.
struct ManagementAuthMiddleware: RouterMiddleware {
    typealias Context = WardenRequestContext
    let runtime: WardenRuntime

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var context = context
        let (clientID, scopes) = try verify(request.headers[.authorization])
        context.managementScopes = scopes
        context.managementClientID = clientID
        RequestFacts.client(clientID)
        return try await next(request, context)
    }

    func verify(_ authorization: String?) throws(ManagementError) -> (String?, Set<String>) {
        guard let credentials = HeaderValue.credentials(authorization, scheme: "bearer") else {
            throw .invalidToken("Missing authentication")
        }
        let token = String(credentials)
        let jws: CompactJWS
        do {
            jws = try runtime.accessTokenVerifier.verify(
                token, audience: runtime.configuration.managementAudience)
        } catch {
            switch error {
            case .invalid: throw .invalidToken("Invalid token")
            case .wrongAudience: throw .invalidToken("Invalid token audience or issuer")
            case .expired: throw .invalidToken("Expired token")
            }
        }
        let scopes = Set((jws.payload["scope"]?.stringValue ?? "").split(separator: " ").map(String.init))
        return (jws.payload["client_id"]?.stringValue ?? jws.payload["azp"]?.stringValue, scopes)
    }
}
