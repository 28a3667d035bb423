import Foundation
import MCP
import WardenResourceServer

/// The bank's MCP tools for the user of the access token: `get_balance` (a fixed demo balance) and
/// `transfer_funds`, which executes only after the user approved that exact transfer (``TransferApprovals``).
struct BankTools: Sendable {
    static let balanceScope = "read:balance"
    static let transferScope = "transfer:funds"
    /// The scopes of this resource (its RFC 9728 `scopes_supported`).
    static let scopes = [balanceScope, transferScope]
    /// The scope each tool needs; ``MCPEndpoint`` refuses a call without it with 403 `insufficient_scope`.
    static let requiredScopes = ["get_balance": balanceScope, "transfer_funds": transferScope]

    let resource: ProtectedResource
    let approvals: TransferApprovals

    static let tools = [
        Tool(
            name: "get_balance", title: "Account balance",
            description: "The balance of the signed-in user's account.",
            inputSchema: ["type": "object", "properties": [:]],
            annotations: .init(readOnlyHint: true, openWorldHint: false)),
        Tool(
            name: "transfer_funds", title: "Transfer money",
            description: """
                Transfers money from the signed-in user's account. The user must approve this exact transfer on \
                their phone (the call waits for the answer, up to a few minutes); the result says whether it was \
                executed or why not.
                """,
            inputSchema: [
                "type": "object",
                "properties": [
                    "amount": ["type": "number", "exclusiveMinimum": 0, "description": "The amount, e.g. 2500"],
                    "currency": ["type": "string", "pattern": "^[A-Z]{3}$", "description": "ISO 4217, e.g. USD"],
                    "beneficiary": ["type": "string", "description": "The recipient's name"],
                    "iban": ["type": "string", "description": "The recipient's IBAN"],
                    "reference": ["type": "string", "description": "What the recipient sees (optional)"],
                ],
                "required": ["amount", "currency", "beneficiary", "iban"],
            ],
            annotations: .init(destructiveHint: true, idempotentHint: false, openWorldHint: false)),
    ]

    /// A session's MCP server with the two tools.
    func makeServer() async -> Server {
        let server = Server(
            name: "mcp-bank", version: "1.0.0", title: "Demo bank (Warden example)",
            instructions: "Transfers need the user's approval on their phone; transfer_funds waits for it.",
            capabilities: .init(tools: .init(listChanged: false)))
        await server.withMethodHandler(ListTools.self) { _ in ListTools.Result(tools: Self.tools) }
        await server.withMethodHandler(CallTool.self) { [weak server] parameters in
            try await call(parameters, server: server)
        }
        return server
    }

    /// One `tools/call`: the request's token is verified again (the handler sees the HTTP request through the
    /// SDK's handler context), then the tool runs for its user.
    func call(_ parameters: CallTool.Parameters, server: Server?) async throws -> CallTool.Result {
        guard let scope = Self.requiredScopes[parameters.name] else {
            throw MCPError.invalidParams("Unknown tool: \(parameters.name)")
        }
        let authorization = Server.currentHandlerContext?.httpContext?.header("Authorization")
        let token: VerifiedAccessToken
        do throws(ProtectedResourceError) {
            token = try await resource.authenticate(authorization: authorization)
            try resource.requireScope(scope, in: token)
        } catch {
            return Self.failure("The access token does not allow this: \(error.description)")
        }
        guard let user = token.subject else { return Self.failure("The access token names no user.") }
        switch parameters.name {
        case "get_balance": return try balance(of: user)
        default:
            let progress = Self.progressReporter(token: parameters._meta?.progressToken, server: server)
            return try await transfer(parameters.arguments ?? [:], by: user, progress: progress)
        }
    }

    func balance(of user: String) throws -> CallTool.Result {
        let balance = Balance(owner: user, account: "xxxxxxxxxxx1234", amount: 12_480, currency: "USD")
        return try CallTool.Result(
            content: [Self.text("Balance of account \(balance.account): \(balance.amount) \(balance.currency)")],
            structuredContent: balance)
    }

    func transfer(
        _ arguments: [String: Value], by user: String, progress: @escaping @Sendable (String) async -> Void
    ) async throws -> CallTool.Result {
        let transfer: MoneyTransfer
        do throws(MoneyTransfer.Invalid) {
            transfer = try MoneyTransfer(arguments: arguments)
        } catch {
            return Self.failure("Invalid transfer: \(error.message).")
        }
        switch await approvals.approve(transfer, by: user, progress: progress) {
        case .refused(let reason):
            say("transfer \"\(transfer.bindingMessage)\" not executed: \(reason)")
            return Self.failure("Transfer of \(transfer.summary) to \(transfer.beneficiary) not executed: \(reason).")
        case .approved(let token):
            let receipt = Receipt(
                transferID: "trf_" + UUID().uuidString.lowercased(), status: "executed", amount: transfer.amount,
                currency: transfer.currency, beneficiary: transfer.beneficiary, iban: transfer.iban,
                approvedBy: user, bindingMessage: transfer.bindingMessage, approvedAt: Date().ISO8601Format(),
                tokenExpiresAt: token.expiresAt.ISO8601Format())
            say("transfer \(receipt.transferID): \(transfer.summary) to \(transfer.iban) approved by \(user)")
            return try CallTool.Result(
                content: [
                    Self.text(
                        "Transfer of \(transfer.summary) to \(transfer.beneficiary) (\(transfer.iban)) executed: "
                            + "\(receipt.transferID), approved by the user as \"\(transfer.bindingMessage)\".")
                ],
                structuredContent: receipt)
        }
    }

    /// Text content without annotations.
    static func text(_ text: String) -> Tool.Content {
        .text(text: text, annotations: nil, _meta: nil)
    }

    /// A tool error (MCP "Tools" §Error Handling: `isError` in the result, for the model to read).
    static func failure(_ message: String) -> CallTool.Result {
        CallTool.Result(content: [Self.text(message)], isError: true)
    }

    /// Sends `notifications/progress` while a transfer waits, when the client asked for them with a
    /// `progressToken` (clients that reset their request timeout on progress then wait for the user).
    static func progressReporter(token: ProgressToken?, server: Server?) -> @Sendable (String) async -> Void {
        let step = Counter()
        return { [weak server] message in
            guard let token, let server else { return }
            let progress = await step.next()
            try? await server.notify(
                ProgressNotification.message(.init(progressToken: token, progress: progress, message: message)))
        }
    }
}

/// Progress values that grow by one.
private actor Counter {
    private var value = 0.0

    func next() -> Double {
        value += 1
        return value
    }
}

/// `get_balance`'s structured result.
struct Balance: Codable, Sendable {
    let owner: String
    let account: String
    let amount: Decimal
    let currency: String
}

/// `transfer_funds`'s structured result when the transfer was executed.
struct Receipt: Codable, Sendable {
    let transferID: String
    let status: String
    let amount: Decimal
    let currency: String
    let beneficiary: String
    let iban: String
    let approvedBy: String
    let bindingMessage: String
    /// ISO 8601.
    let approvedAt: String
    /// When the approved token expires (ISO 8601).
    let tokenExpiresAt: String

    enum CodingKeys: String, CodingKey {
        case transferID = "transfer_id"
        case status, amount, currency, beneficiary, iban
        case approvedBy = "approved_by"
        case bindingMessage = "binding_message"
        case approvedAt = "approved_at"
        case tokenExpiresAt = "token_expires_at"
    }
}
