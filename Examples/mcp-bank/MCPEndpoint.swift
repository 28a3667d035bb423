import Foundation
import HTTPTypes
import Hummingbird
import MCP
import NIOCore
import WardenResourceServer

/// The HTTP side of the server: the RFC 9728 metadata without a token, and the MCP endpoint (POST, GET and
/// DELETE, MCP 2025-06-18 "Streamable HTTP") behind ``BearerTokenMiddleware``, so that a request without a valid
/// token gets 401 with `WWW-Authenticate: Bearer resource_metadata="…"` — how an MCP client finds Warden
/// (MCP 2025-06-18 "Authorization" §2.3, RFC 9728 §5.1).
///
/// A `tools/call` whose tool needs a scope the token lacks is refused here, before the MCP server sees it,
/// with 403 `insufficient_scope` naming the scope (RFC 6750 §3.1): MCP clients answer that with a step-up
/// authorization.
struct MCPEndpoint: Sendable {
    let resource: ProtectedResource
    let sessions: MCPSessions
    /// The scope each tool needs, by tool name.
    let requiredScopes: [String: String]

    /// The largest request body read (a JSON-RPC message).
    static let maximumBodySize = 1 << 20

    func router() -> Router<BasicAccessTokenRequestContext> {
        let router = Router(context: BasicAccessTokenRequestContext.self)
        let metadata = resource.metadata
        // RFC 9728 §3.1: the path-inserted well-known URL, which the challenges name; and the bare one, which
        // MCP clients try last.
        router.addProtectedResourceMetadata(metadata)
        if metadata.path != ProtectedResourceMetadata.wellKnownPath {
            let body = metadata.json
            router.get(RouterPath(ProtectedResourceMetadata.wellKnownPath)) { _, _ in
                Response(
                    status: .ok, headers: [.contentType: "application/json"],
                    body: .init(byteBuffer: ByteBuffer(string: body)))
            }
        }
        let path = URL(string: resource.configuration.resource)?.path ?? "/mcp"
        let mcp = router.group(RouterPath(path.isEmpty ? "/" : path)).add(middleware: BearerTokenMiddleware(resource))
        mcp.post { request, context in try await handle(request, context: context) }
        mcp.get { request, context in try await handle(request, context: context) }
        mcp.delete { request, context in try await handle(request, context: context) }
        return router
    }

    /// Hands the request to its MCP session, as the SDK's framework-neutral `HTTPRequest`.
    func handle(_ request: Request, context: BasicAccessTokenRequestContext) async throws -> Response {
        let token = try context.requireAccessToken()
        var request = request
        let body = Data(try await request.collectBody(upTo: Self.maximumBodySize).readableBytesView)
        if request.method == .post { try requireScope(for: body, token: token) }
        var headers: [String: String] = [:]
        for field in request.headers {
            let name = field.name.canonicalName
            headers[name] = headers[name].map { $0 + ", " + field.value } ?? field.value
        }
        let answer = await sessions.handle(
            MCP.HTTPRequest(
                method: request.method.rawValue, headers: headers, body: body.isEmpty ? nil : body,
                path: request.uri.path),
            subject: token.subject)
        return Self.response(answer)
    }

    /// 403 `insufficient_scope` when the body is a `tools/call` of a tool whose scope the token lacks.
    func requireScope(for body: Data, token: VerifiedAccessToken) throws {
        guard let message = try? JSONDecoder().decode(JSONRPCCall.self, from: body), message.method == "tools/call",
            let tool = message.params?.name, let scope = requiredScopes[tool]
        else { return }
        try resource.requireScope(scope, in: token)
    }

    /// The SDK's answer as a Hummingbird response; an SSE stream is written as it comes.
    static func response(_ answer: MCP.HTTPResponse) -> Response {
        var fields = HTTPFields()
        for (name, value) in answer.headers {
            if let name = HTTPField.Name(name) { fields[name] = value }
        }
        let status = HTTPTypes.HTTPResponse.Status(code: answer.statusCode)
        if case .stream(let stream, _) = answer {
            return Response(
                status: status, headers: fields,
                body: ResponseBody { writer in
                    for try await chunk in stream { try await writer.write(ByteBuffer(bytes: chunk)) }
                    try await writer.finish(nil)
                })
        }
        let body = answer.bodyData.map { ResponseBody(byteBuffer: ByteBuffer(bytes: $0)) } ?? ResponseBody()
        return Response(status: status, headers: fields, body: body)
    }
}

/// The parts of a JSON-RPC request that decide its scope: `method` and `params.name`.
private struct JSONRPCCall: Decodable {
    struct Parameters: Decodable {
        var name: String?
    }

    var method: String?
    var params: Parameters?
}
