import ArgumentParser
import Foundation
import Hummingbird
import NIOCore
import WardenResourceServer

/// A small resource server for the walkthrough: accepts Warden's access tokens for `https://api.example.com`
/// (validated by the WardenResourceServer SDK against the issuer's JWKS, RFC 9068) and enforces the scopes and
/// `authorization_details` they carry.
@main
struct ProtectedAPI: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "protected-api",
        abstract: "The demo bank API: GET /balance and POST /transfers behind Warden's access tokens.",
        discussion: """
            Every request needs `Authorization: Bearer <access token>` (RFC 6750) of the issuer for the audience. \
            GET /balance needs the scope read:balance. POST /transfers {"amount": 2500, "currency": "USD", \
            "beneficiary": "Hanna Herwitz"} needs transfer:funds and a money_transfer authorization detail \
            (RFC 9396) in the token with the same currency and at least that amount. Refusals are OAuth-style \
            JSON errors: 401 invalid_token, 403 insufficient_scope or insufficient_authorization_details.
            """)

    @Option(help: "The address to listen on.") var host = "127.0.0.1"
    @Option(help: "The port to listen on (0: any free port).") var port = 9090
    @Option(help: "The Warden whose access tokens are accepted.") var issuer = "http://127.0.0.1:8080/"
    @Option(help: "This API's identifier: the audience its tokens must carry.")
    var audience = "https://api.example.com"

    func run() async throws {
        guard let issuerURL = URL(string: issuer) else { throw ValidationError("--issuer is not a URL: \(issuer)") }
        var configuration = ProtectedResource.Configuration(
            issuer: issuerURL, resource: audience, scopesSupported: ["read:balance", "transfer:funds"],
            realm: audience)
        // The identifier names the API, not this demo's address, so a resource_metadata URL made from it would
        // lead nowhere: the challenges leave it out; the document is served at this server's well-known path.
        configuration.resourceMetadataURL = nil
        let api = BankAPI(server: ProtectedResource(configuration: configuration))
        let (host, audience) = (self.host, self.audience)
        let app = Application(
            router: api.router(),
            configuration: .init(address: .hostname(host, port: port), serverName: "protected-api"),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? 0
                BankAPI.log(
                    "protected-api listening on http://\(host):\(port)/ (tokens of \(issuerURL) for \(audience))")
            })
        try await app.runService()
    }
}
