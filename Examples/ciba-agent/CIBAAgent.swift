import ArgumentParser
import Foundation
import WardenClient
import WardenWire

/// An "AI agent" that needs a person's approval before it moves money: it asks Warden to have alice approve a
/// 2,500 USD transfer on her device (CIBA with a `money_transfer` authorization detail, SPEC §6), waits while she
/// decides, then calls the bank API with the access token it got.
@main
struct CIBAAgent: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ciba-agent",
        abstract: "Ask a user to approve a money transfer on their device (CIBA + RAR), then make it.",
        discussion: """
            Sends POST /bc-authorize with login_hint iss_sub for --user-id, a binding message and the reference \
            document's money_transfer authorization detail; polls the token endpoint (backing off on slow_down) \
            while showing the binding message and the time left; on approval calls POST {api}transfers with the \
            access token and prints the API's answer. Exits non-zero when the user denies, the request expires, \
            or the API refuses.

            Example (the demo tenant of `warden serve --demo`, which prints the secret and alice's user_id):
              WARDEN_CLIENT_SECRET=… ciba-agent --user-id 'auth0|…'
            """)

    @Option(help: "The Warden to ask.") var issuer = "http://127.0.0.1:8080/"
    @Option(name: .customLong("client-id"), help: "The CIBA client.") var clientID = "demo-ciba"
    @Option(
        name: .customLong("client-secret"),
        help: "The CIBA client's secret (default: the environment variable WARDEN_CLIENT_SECRET).")
    var clientSecret: String?
    @Option(name: .customLong("user-id"), help: "The user_id of the user who approves (login_hint iss_sub).")
    var userID: String
    @Option(help: "The protected API's base URL.") var api = "http://127.0.0.1:9090/"
    @Option(help: "The API identifier the token is for.") var audience = "https://api.example.com"
    @Option(help: "The amount to transfer.") var amount = "2500"
    @Option(help: "Its currency.") var currency = "USD"
    @Option(help: "Who receives it.") var beneficiary = "Hanna Herwitz"
    @Option(
        name: .customLong("requested-expiry"),
        help: "Seconds the user has to decide; up to 300 the request goes to the user's push devices (SPEC §6.1).")
    var requestedExpiry = 300

    func run() async throws {
        do {
            try await askAndTransfer()
        } catch let error as WardenClientError {
            throw AgentFailure(error)
        }
    }

    private func askAndTransfer() async throws {
        guard let secret = clientSecret ?? ProcessInfo.processInfo.environment["WARDEN_CLIENT_SECRET"] else {
            throw ValidationError("give the CIBA client's secret: --client-secret or WARDEN_CLIENT_SECRET")
        }
        guard let issuerURL = URL(string: issuer), let apiURL = URL(string: api) else {
            throw ValidationError("--issuer and --api must be URLs")
        }
        guard let amount = Decimal(string: amount, locale: Locale(identifier: "en_US_POSIX")), amount > 0 else {
            throw ValidationError("--amount must be a positive number")
        }
        let transfer = MoneyTransfer(amount: amount, currency: currency, beneficiary: beneficiary)
        let bank = BankAPIClient(base: apiURL)
        try await bank.checkReachable()
        let warden = try await WardenClient.discover(
            issuer: issuerURL, clientID: clientID, authentication: .clientSecretBasic(secret))

        say("Agent: I need approval to transfer \(transfer.summary) to \(transfer.beneficiary).")
        let user = LoginHint.issSub(issuer: warden.configuration.issuer.absoluteString, subject: userID)
        let started = try await warden.backchannelAuthenticate(
            BackchannelAuthenticationRequest(
                loginHint: user, scope: ["openid", "transfer:funds"],
                bindingMessage: transfer.bindingMessage, authorizationDetails: [transfer.authorizationDetail],
                audience: audience, requestedExpiry: requestedExpiry))
        say("Asked \(userID) to approve (auth_req_id \(started.authReqID)).")
        say("Binding message: \(transfer.bindingMessage)  (the device shows the same)")

        let tokens = try await approval(of: started, warden: warden, bindingMessage: transfer.bindingMessage)
        say("Approved. Access token for \(audience), scope \(tokens.scope ?? "?").")
        try await execute(transfer, accessToken: tokens.accessToken, bank: bank)
    }

    /// Polls until the user decides, with the waiting line on screen (erased before anything else is printed).
    private func approval(of started: BackchannelAuthentication, warden: WardenClient, bindingMessage: String)
        async throws -> TokenResponse
    {
        let line = WaitingLine(bindingMessage: bindingMessage, expiresIn: started.expiresIn)
        let animation = Task { await line.animate() }
        do {
            for try await event in warden.poll(started) {
                switch event {
                case .pending: line.pending()
                case .slowDown(let interval): line.note("The server asked to poll less often: every \(interval).")
                case .approved(let tokens):
                    animation.cancel()
                    await animation.value
                    return tokens
                }
            }
            throw WardenClientError(
                error: "invalid_response", errorDescription: "the poll ended undecided", status: nil)
        } catch {
            animation.cancel()
            await animation.value
            throw error
        }
    }

    /// `POST {api}transfers` with the access token; prints the API's answer, and fails unless it is a 2xx.
    private func execute(_ transfer: MoneyTransfer, accessToken: String, bank: BankAPIClient) async throws {
        say("Calling POST \(bank.base.appendingPathComponent("transfers").absoluteString) …")
        let response = try await bank.transfer(transfer, accessToken: accessToken)
        say("The API answered \(response.status):")
        say(Self.pretty(response.body))
        guard (200..<300).contains(response.status) else {
            throw AgentFailure(message: "the API refused the transfer (HTTP \(response.status))")
        }
        say("Transfer of \(transfer.summary) to \(transfer.beneficiary) done.")
    }

    /// The body as indented JSON, or as text when it is not JSON.
    static func pretty(_ body: Data) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let value = try? JSONDecoder().decode(JSONValue.self, from: body),
            let text = try? encoder.encode(value)
        else { return String(decoding: body, as: UTF8.self) }
        return String(decoding: text, as: UTF8.self)
    }
}
