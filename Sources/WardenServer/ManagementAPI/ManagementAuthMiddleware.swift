import Foundation
import HTTPTypes
import Hummingbird
import WardenCore

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
        return try await next(request, context)
    }

    func verify(_ authorization: String?) throws(ManagementError) -> (String?, Set<String>) {
        guard let credentials = HeaderValue.credentials(authorization, scheme: "bearer") else {
            throw .invalidToken("Missing authentication")
        }
        let token = String(credentials)
        guard let jws = try? CompactJWS(parsing: token), let kid = jws.kid,
            let key = runtime.keys.ring.publishedKey(kid: kid), jws.alg == key.alg.rawValue,
            jws.isSigned(by: key.verifier)
        else { throw .invalidToken("Invalid token") }
        guard jws.payload["iss"]?.stringValue == runtime.issuer,
            jws.audiences.contains(runtime.configuration.managementAudience)
        else { throw .invalidToken("Invalid token audience or issuer") }
        guard let exp = jws.numericDate("exp"), exp > runtime.clock.now().timeIntervalSince1970 else {
            throw .invalidToken("Expired token")
        }
        let scopes = Set((jws.payload["scope"]?.stringValue ?? "").split(separator: " ").map(String.init))
        return (jws.payload["client_id"]?.stringValue ?? jws.payload["azp"]?.stringValue, scopes)
    }
}
