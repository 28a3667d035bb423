import ArgumentParser
import Foundation
import Hummingbird
import WardenResourceServer

/// An MCP server (the Streamable HTTP transport of MCP 2025-06-18) protected by Warden (SPEC §13): a stock MCP
/// client finds Warden through this server's RFC 9728 metadata, registers itself and signs the user in; the
/// tools then act on a demo bank account for the user of the access token. A transfer is not made on the
/// agent's token alone: the user approves that one transfer through CIBA (SPEC §6) on their device.
@main
struct MCPBank: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mcp-bank",
        abstract: "An MCP server behind Warden: a balance to read, and transfers the user approves by CIBA.",
        discussion: """
            Serves MCP (Streamable HTTP) at the path of --resource (default http://HOST:PORT/mcp) and its RFC 9728 \
            metadata at /.well-known/oauth-protected-resource/mcp (and at /.well-known/oauth-protected-resource), \
            naming --issuer as the authorization server. Every MCP request needs an access token of the issuer \
            for the resource (401 with WWW-Authenticate: Bearer resource_metadata="…" otherwise).

            Tools: get_balance (scope read:balance) and transfer_funds (scope transfer:funds; arguments amount, \
            currency, beneficiary, iban, reference). transfer_funds asks the token's user to approve that exact \
            transfer by CIBA (a money_transfer authorization detail and a binding message, pushed to their \
            devices), waits for the answer within the tool call (at most --approval-timeout seconds), and \
            executes the transfer only when the approved token's authorization_details are the ones requested.

            Example (the demo tenant of `warden serve --demo --registration open`, which prints the secret):
              WARDEN_CLIENT_SECRET=… mcp-bank --issuer http://127.0.0.1:8080/
            """)

    @Option(help: "The Warden whose access tokens are accepted and which asks users to approve transfers.")
    var issuer = "http://127.0.0.1:8080/"
    @Option(help: "The address to listen on.") var host = "127.0.0.1"
    @Option(help: "The port to listen on.") var port = 9091
    @Option(help: "This server's resource identifier, the URL MCP clients connect to (default: http://HOST:PORT/mcp).")
    var resource: String?
    @Option(
        name: .customLong("client-id"),
        help:
            "The CIBA client that asks for approvals (default: the environment variable WARDEN_CLIENT_ID, else demo-mcp-bank)."
    )
    var clientID: String?
    @Option(
        name: .customLong("client-secret"),
        help: "The CIBA client's secret, sent by HTTP Basic (default: the environment variable WARDEN_CLIENT_SECRET).")
    var clientSecret: String?
    @Option(
        name: .customLong("approval-timeout"),
        help: "Seconds the user has to approve a transfer (10–300: the request goes to the user's push devices).")
    var approvalTimeout = 120

    func validate() throws {
        guard (1...65535).contains(port) else { throw ValidationError("--port must be 1–65535") }
        guard (10...300).contains(approvalTimeout) else { throw ValidationError("--approval-timeout must be 10–300") }
        guard URL(string: issuer)?.host != nil else { throw ValidationError("--issuer is not a URL: \(issuer)") }
        if let resource, URL(string: resource)?.host == nil {
            throw ValidationError("--resource is not a URL: \(resource)")
        }
    }

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        guard let secret = clientSecret ?? environment["WARDEN_CLIENT_SECRET"] else {
            throw ValidationError("give the CIBA client's secret: --client-secret or WARDEN_CLIENT_SECRET")
        }
        let issuerURL = URL(string: issuer)!
        let authority = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        let resource = self.resource ?? "http://\(authority)/mcp"
        let protected = ProtectedResource(
            configuration: .init(issuer: issuerURL, resource: resource, scopesSupported: BankTools.scopes))
        let approvals = TransferApprovals(
            issuer: issuerURL, clientID: clientID ?? environment["WARDEN_CLIENT_ID"] ?? "demo-mcp-bank",
            clientSecret: secret, resource: protected, timeout: approvalTimeout)
        let tools = BankTools(resource: protected, approvals: approvals)
        let endpoint = MCPEndpoint(
            resource: protected, sessions: MCPSessions { await tools.makeServer() },
            requiredScopes: BankTools.requiredScopes)
        let host = self.host
        let app = Application(
            router: endpoint.router(),
            configuration: .init(address: .hostname(host, port: port), serverName: "mcp-bank"),
            onServerRunning: { _ in
                say(
                    "mcp-bank listening: MCP at \(resource), metadata at \(protected.metadata.path), tokens of \(issuerURL)"
                )
            })
        try await app.runService()
    }
}

/// One line on standard output, unbuffered (a pipe reads it at once).
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
