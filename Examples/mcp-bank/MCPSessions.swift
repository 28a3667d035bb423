import Foundation
import MCP

/// The MCP sessions of the server (MCP 2025-06-18 "Streamable HTTP", Session Management): an `initialize`
/// without `Mcp-Session-Id` starts one (its own SDK `Server` on a `StatefulHTTPServerTransport`); later requests
/// name it. A session belongs to the user whose token started it: another user's token gets 404, as for an
/// unknown session. Sessions idle for an hour are closed when the next one starts.
actor MCPSessions {
    private struct Session {
        let server: Server
        let transport: StatefulHTTPServerTransport
        let subject: String?
        var lastUsed: ContinuousClock.Instant
    }

    /// The transport asks for the session ID; the ID is chosen first so that the session is known by it.
    private struct FixedSessionID: SessionIDGenerator {
        let id: String
        func generateSessionID() -> String { id }
    }

    private var sessions: [String: Session] = [:]
    private let makeServer: @Sendable () async -> Server
    /// How long an unused session is kept.
    let idleLimit: Duration = .seconds(3600)

    /// Sessions whose servers `makeServer` makes.
    init(makeServer: @escaping @Sendable () async -> Server) {
        self.makeServer = makeServer
    }

    /// The answer to one HTTP request of the user `subject` (the access token's `sub`).
    func handle(_ request: MCP.HTTPRequest, subject: String?) async -> MCP.HTTPResponse {
        if let id = request.header(HTTPHeaderName.sessionID) {
            guard var session = sessions[id], session.subject == subject else {
                return .error(statusCode: 404, .invalidRequest("Not Found: Session not found or expired"))
            }
            session.lastUsed = .now
            sessions[id] = session
            let response = await session.transport.handleRequest(request)
            if request.method.uppercased() == "DELETE", response.statusCode == 200 {
                sessions[id] = nil
            }
            return response
        }
        guard request.method.uppercased() == "POST", Self.isInitialize(request.body) else {
            return .error(
                statusCode: 400, .invalidRequest("Bad Request: Missing \(HTTPHeaderName.sessionID) header"))
        }
        return await start(request, subject: subject)
    }

    private func start(_ request: MCP.HTTPRequest, subject: String?) async -> MCP.HTTPResponse {
        await closeIdleSessions()
        let id = UUID().uuidString
        let transport = StatefulHTTPServerTransport(sessionIDGenerator: FixedSessionID(id: id))
        let server = await makeServer()
        do {
            try await server.start(transport: transport)
        } catch {
            await transport.disconnect()
            return .error(statusCode: 500, .internalError("Cannot start the session: \(error)"))
        }
        sessions[id] = Session(server: server, transport: transport, subject: subject, lastUsed: .now)
        let response = await transport.handleRequest(request)
        if case .error = response {
            sessions[id] = nil
            await transport.disconnect()
        }
        return response
    }

    private func closeIdleSessions() async {
        let now = ContinuousClock.now
        for (id, session) in sessions where now - session.lastUsed > idleLimit {
            sessions[id] = nil
            await session.transport.disconnect()
        }
    }

    /// Whether `body` is a JSON-RPC request with the method `initialize`.
    static func isInitialize(_ body: Data?) -> Bool {
        struct Message: Decodable {
            var method: String?
        }
        guard let body, let message = try? JSONDecoder().decode(Message.self, from: body) else { return false }
        return message.method == "initialize"
    }
}
