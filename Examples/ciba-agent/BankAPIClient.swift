import Foundation
import WardenClient

/// The agent's side of the bank API (`Examples/protected-api`).
struct BankAPIClient: Sendable {
    let base: URL
    var transport = AsyncHTTPTransport.shared
    /// How long the check before the request waits for an answer (a closed port is retried until then).
    var checkTimeout: Duration = .seconds(5)

    /// Makes sure the API is there before the user is asked anything: `GET {api}balance` without a token must
    /// answer with a Bearer challenge (RFC 6750 §3).
    func checkReachable() async throws {
        var quick = transport
        quick.timeout = checkTimeout
        let response = try await send(
            HTTPRequest(method: "GET", url: base.appendingPathComponent("balance")), over: quick)
        guard response.header("WWW-Authenticate")?.hasPrefix("Bearer") == true else {
            throw AgentFailure(
                message: "\(base.absoluteString) is not the bank API (GET /balance answered HTTP \(response.status) "
                    + "without a Bearer challenge)")
        }
    }

    /// `POST {api}transfers` with the order as JSON and the access token (RFC 6750 §2.1).
    func transfer(_ transfer: MoneyTransfer, accessToken: String) async throws -> HTTPResponse {
        try await send(
            HTTPRequest(
                method: "POST", url: base.appendingPathComponent("transfers"),
                headers: [("Authorization", "Bearer \(accessToken)"), ("Content-Type", "application/json")],
                body: try JSONEncoder().encode(transfer.order)),
            over: transport)
    }

    private func send(_ request: HTTPRequest, over transport: AsyncHTTPTransport) async throws -> HTTPResponse {
        do {
            return try await transport.send(request)
        } catch {
            let reason = (error as? WardenClientError)?.errorDescription ?? "\(error)"
            throw AgentFailure(message: "cannot reach the API at \(base.absoluteString) (\(reason))")
        }
    }
}
