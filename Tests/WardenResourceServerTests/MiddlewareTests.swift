import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
import WardenCore
import WardenResourceServer
import WardenWire

/// The Hummingbird side (RFC 6750 §3, RFC 9728, SPEC §13): the exact challenges and bodies of the 401, 403 and
/// 400 answers, the verified token in the context, and the metadata document.
@Suite("WardenResourceServer: middleware and metadata")
struct MiddlewareTests {
    static let metadataURL = "https://api.example.com/.well-known/oauth-protected-resource"

    /// `GET /balance` needs `read:balance`, `POST /transfers` `transfer:funds`; both answer the token's subject.
    static func application(_ server: ProtectedResource) -> some ApplicationProtocol {
        let router = Router(context: BasicAccessTokenRequestContext.self)
        router.addProtectedResourceMetadata(server.metadata)
        let api = router.group().add(middleware: BearerTokenMiddleware(server))
        api.group("balance").add(middleware: RequiredScopeMiddleware("read:balance", server))
            .get { _, context in try context.requireAccessToken().subject ?? "" }
        api.group("transfers").add(middleware: RequiredScopeMiddleware("transfer:funds", server))
            .post { _, context in try context.requireAccessToken().subject ?? "" }
        router.get("public") { _, context in context.accessToken == nil ? "anonymous" : "token" }
        return Application(router: router)
    }

    /// The answer's status, `WWW-Authenticate`, `Cache-Control` and body.
    struct Answer: Equatable {
        var status: HTTPResponse.Status
        var challenge: String?
        var cacheControl: String?
        var body: String
    }

    static func answer(
        _ server: ProtectedResource, _ method: HTTPRequest.Method, _ path: String, authorization: String? = nil
    ) async throws -> Answer {
        var fields: HTTPFields = [:]
        if let authorization { fields[.authorization] = authorization }
        let headers = fields
        return try await application(server).test(.router) { client in
            try await client.execute(uri: path, method: method, headers: headers) { response in
                Answer(
                    status: response.status, challenge: response.headers[.wwwAuthenticate],
                    cacheControl: response.headers[.cacheControl], body: String(buffer: response.body))
            }
        }
    }

    static func refusal(_ status: HTTPResponse.Status, _ challenge: String?, _ error: String, _ description: String)
        -> Answer
    {
        Answer(
            status: status, challenge: challenge, cacheControl: "no-store",
            body: #"{"error":"\#(error)","error_description":"\#(description)"}"#)
    }

    @Test func aValidTokenWithTheScopeReachesTheRouteWithItsClaims() async throws {
        let (issuer, key) = try LocalIssuer.publishing()
        let answer = try await Self.answer(
            issuer.server(), .get, "/balance", authorization: "Bearer " + (try LocalIssuer.token(key)))
        #expect(answer == Answer(status: .ok, challenge: nil, cacheControl: nil, body: "auth0|alice"))
        #expect(try await Self.answer(issuer.server(), .get, "/public").body == "anonymous")
    }

    @Test func noTokenGetsTheBareChallengeNamingTheMetadata() async throws {
        let answer = try await Self.answer(LocalIssuer().server(), .get, "/balance")
        #expect(
            answer
                == Self.refusal(
                    .unauthorized, #"Bearer resource_metadata="\#(Self.metadataURL)""#, "invalid_token",
                    "Missing access token"))
    }

    @Test func aBadTokenGetsInvalidTokenWithItsReason() async throws {
        let (issuer, key) = try LocalIssuer.publishing()
        let foreign = try LocalIssuer.token(key) { $0["aud"] = "https://other.example.com" }
        let answer = try await Self.answer(issuer.server(), .get, "/balance", authorization: "Bearer " + foreign)
        let body =
            #"{"error":"invalid_token","error_description":"aud [\"https://other.example.com\"] "#
            + #"does not contain https://api.example.com"}"#
        let challenge =
            #"Bearer error="invalid_token", error_description="aud ['https://other.example.com'] "#
            + #"does not contain https://api.example.com", resource_metadata="\#(Self.metadataURL)""#
        #expect(answer == Answer(status: .unauthorized, challenge: challenge, cacheControl: "no-store", body: body))
    }

    @Test func aTokenWithoutTheScopeGetsInsufficientScopeNamingIt() async throws {
        let (issuer, key) = try LocalIssuer.publishing()
        let answer = try await Self.answer(
            issuer.server(), .post, "/transfers", authorization: "Bearer " + (try LocalIssuer.token(key)))
        #expect(
            answer
                == Self.refusal(
                    .forbidden,
                    #"Bearer error="insufficient_scope", scope="transfer:funds", resource_metadata="\#(Self.metadataURL)""#,
                    "insufficient_scope", "This request needs the scope transfer:funds"))
    }

    @Test func anotherSchemeIsAMalformedRequest() async throws {
        let answer = try await Self.answer(LocalIssuer().server(), .get, "/balance", authorization: "Basic YWxpY2U6")
        #expect(
            answer
                == Self.refusal(
                    .badRequest,
                    #"Bearer error="invalid_request", resource_metadata="\#(Self.metadataURL)""#, "invalid_request",
                    #"The Authorization header must be \"Bearer \u003caccess token\u003e\""#))
    }

    /// A realm, and no `resource_metadata` when the URL is taken out (the protected-api example's answers).
    @Test func theRealmComesFirstAndTheMetadataURLCanBeLeftOut() async throws {
        let server = LocalIssuer().server {
            $0.realm = "https://api.example.com"
            $0.resourceMetadataURL = nil
        }
        #expect(
            try await Self.answer(server, .get, "/balance").challenge == #"Bearer realm="https://api.example.com""#)
        let error = ProtectedResourceError.refusal(
            .forbidden, "insufficient_authorization_details", #"a "b" \ é"#, server)
        #expect(
            error.challenge?.headerValue
                == #"Bearer realm="https://api.example.com", error="insufficient_authorization_details", "#
                + #"error_description="a 'b' ' ?""#)
        #expect(error.description == #"a "b" \ é"#)
    }

    @Test func theMetadataDocumentIsServedWithoutAToken() async throws {
        let answer = try await Self.answer(LocalIssuer().server(), .get, "/.well-known/oauth-protected-resource")
        #expect(answer.status == .ok)
        #expect(
            answer.body
                == #"{"resource":"https://api.example.com","authorization_servers":["https://id.example.com/"],"#
                + #""scopes_supported":["read:balance","transfer:funds"],"bearer_methods_supported":["header"]}"#)
        let decoded = try JSONDecoder().decode(ProtectedResourceMetadata.self, from: Data(answer.body.utf8))
        #expect(decoded == LocalIssuer().server().metadata)
    }

    /// RFC 9728 §3.1: the well-known path goes between the host and the resource's path.
    @Test(arguments: [
        ("https://api.example.com", "https://api.example.com/.well-known/oauth-protected-resource"),
        ("https://api.example.com/", "https://api.example.com/.well-known/oauth-protected-resource"),
        ("https://mcp.example.com/mcp", "https://mcp.example.com/.well-known/oauth-protected-resource/mcp"),
        ("http://127.0.0.1:9090/v1/tools", "http://127.0.0.1:9090/.well-known/oauth-protected-resource/v1/tools"),
    ])
    func theMetadataURLOfAResource(resource: String, url: String) {
        #expect(ProtectedResourceMetadata.url(for: resource)?.absoluteString == url)
    }

    @Test func aResourceWithAPathServesItsMetadataThere() async throws {
        let server = LocalIssuer().server { $0.resource = "https://mcp.example.com/mcp" }
        #expect(server.metadata.path == "/.well-known/oauth-protected-resource/mcp")
        let answer = try await Self.answer(server, .get, "/.well-known/oauth-protected-resource/mcp")
        #expect(answer.status == .ok)
        #expect(answer.body.hasPrefix(#"{"resource":"https://mcp.example.com/mcp","#))
    }
}
