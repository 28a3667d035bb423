import Foundation
import Hummingbird
import Synchronization
import WardenCore
import WardenWire

/// The demo tenant of `warden serve --demo` (SPEC §1), seeded idempotently: alice, the demo API, a public
/// native/SPA client, a confidential CIBA client and a web client set up for session transfer; and for the
/// `mcp-bank` example (SPEC §13), the API named by its default resource URL and its own CIBA client.
public struct DemoTenant: Sendable {
    public static let userEmail = "alice@example.com"
    public static let userPassword = "correct horse battery staple"
    public static let apiIdentifier = "https://api.example.com"
    public static let nativeClientID = "demo-native"
    public static let cibaClientID = "demo-ciba"
    public static let webClientID = "demo-web"
    /// The `mcp-bank` example's resource identifier at its default address: the MCP endpoint's URL, which its
    /// RFC 9728 metadata names and MCP clients send as `resource` (RFC 8707).
    public static let mcpBankResource = "http://127.0.0.1:9091/mcp"
    /// The confidential CIBA client `mcp-bank` asks users to approve transfers with.
    public static let mcpBankClientID = "demo-mcp-bank"

    let runtime: WardenRuntime

    public init(runtime: WardenRuntime) {
        self.runtime = runtime
    }

    /// What the quick start prints.
    public struct Seeded: Sendable {
        public var userID: String
        /// The CIBA client's secret: made anew on every `--demo` start, since only its hash is stored.
        public var cibaClientSecret: String
        public var webClientSecret: String
        /// The `mcp-bank` CIBA client's secret, made anew on every `--demo` start like the others.
        public var mcpBankClientSecret: String
        public var callback: String
        /// A fresh enrolment ticket for alice (SPEC §7.1): the quick start's one-command enrolment of the terminal
        /// authenticator. Nothing is enrolled until someone uses it.
        public var enrollmentTicketURL: String
        /// The quick start's login URL with a fresh PKCE pair; `/demo/callback` fills its verifier in.
        public var login: QuickStartLogin
    }

    public func seed() async throws -> Seeded {
        let store = runtime.store
        let now = runtime.clock.now()
        let user: UserRecord
        if let existing = try await store.user(email: Self.userEmail) {
            user = existing
        } else {
            var profile = User(
                userID: "auth0|" + RandomToken.identifier(prefix: "", length: 24), email: Self.userEmail, createdAt: now
            )
            profile.emailVerified = true
            profile.name = "Alice Example"
            profile.nickname = "alice"
            user = UserRecord(
                user: profile,
                passwordHash: try await PasswordHashing.hash(Self.userPassword, cost: runtime.configuration.bcryptCost))
            try await store.insertUser(user)
        }
        // SPEC §14: the demo's alice is an admin of the console.
        try await Bootstrap(runtime: runtime).makeAdmin(userID: user.user.userID)
        try await insertBankAPI(identifier: Self.apiIdentifier, name: "Demo Bank API")
        try await insertBankAPI(identifier: Self.mcpBankResource, name: "Demo MCP Bank")
        let callback = Self.callback(issuer: runtime.issuer)

        var native = Client(clientID: Self.nativeClientID, name: "Demo Native App")
        native.appType = .native
        native.tokenEndpointAuthMethod = TokenEndpointAuthMethod.none
        native.grantTypes = [.authorizationCode, .refreshToken, .tokenExchange]
        native.callbacks = [callback]
        native.allowedLogoutURLs = [runtime.issuer + "demo/"]
        var transfer = SessionTransferConfiguration()
        transfer.canCreateSessionTransferToken = true
        native.sessionTransfer = transfer
        try await upsert(native, secret: nil, now: now)

        var ciba = Client(clientID: Self.cibaClientID, name: "Demo Payments Agent")
        ciba.appType = .nonInteractive
        // The quick start's curl lines and the ciba-agent example send its secret by HTTP Basic; SPEC §4 enforces
        // the registered method.
        ciba.tokenEndpointAuthMethod = .clientSecretBasic
        ciba.grantTypes = [.ciba, .refreshToken]
        ciba.backchannelTokenDeliveryMode = .poll
        let cibaSecret = RandomToken.make()
        try await upsert(ciba, secret: cibaSecret, now: now)

        // mcp-bank's own CIBA client, so the MCP server's approvals are told apart from the agent example's.
        var mcpBank = Client(clientID: Self.mcpBankClientID, name: "Demo MCP Bank")
        mcpBank.appType = .nonInteractive
        mcpBank.tokenEndpointAuthMethod = .clientSecretBasic
        mcpBank.grantTypes = [.ciba]
        mcpBank.backchannelTokenDeliveryMode = .poll
        let mcpBankSecret = RandomToken.make()
        try await upsert(mcpBank, secret: mcpBankSecret, now: now)

        var web = Client(clientID: Self.webClientID, name: "Demo Web App")
        web.appType = .regularWeb
        web.grantTypes = [.authorizationCode, .refreshToken]
        web.callbacks = [callback]
        web.allowedLogoutURLs = [runtime.issuer + "demo/"]
        var webTransfer = SessionTransferConfiguration()
        webTransfer.allowedAuthenticationMethods = ["cookie", "query"]
        web.sessionTransfer = webTransfer
        let webSecret = RandomToken.make()
        try await upsert(web, secret: webSecret, now: now)

        try await runtime.cache.reload()
        let ticketID = try await runtime.enrollmentTickets.issue(EnrollmentTicket(user: user.user))
        let login = Self.quickStartLogin(issuer: runtime.issuer)
        DemoLogins.shared.remember(verifier: login.verifier)
        return Seeded(
            userID: user.user.userID, cibaClientSecret: cibaSecret, webClientSecret: webSecret,
            mcpBankClientSecret: mcpBankSecret, callback: callback,
            enrollmentTicketURL: EnrollmentTicket.url(issuer: runtime.issuer, ticketID: ticketID), login: login)
    }

    /// The bank API's shape (scopes `read:balance` and `transfer:funds`, the `money_transfer` detail type) under
    /// `identifier`, unless an API has that identifier already.
    /// `--demo-mfa`: every factor on and the `all-applications` policy (SPEC §12), so the next sign-in asks alice
    /// to enrol (a QR code for an authenticator app or `warden authenticator enroll`).
    public func turnOnMFA() async throws {
        for factor in MFAFactor.all { try await runtime.store.setMFAFactor(factor, enabled: true) }
        try await runtime.store.setMFAPolicies([.allApplications])
    }

    private func insertBankAPI(identifier: String, name: String) async throws {
        guard try await runtime.store.resourceServer(idOrIdentifier: identifier) == nil else { return }
        var api = ResourceServer(
            id: RandomToken.identifier(prefix: "", length: 24), identifier: identifier, name: name)
        api.scopes = [
            .init(value: "read:balance", description: "Read account balances"),
            .init(value: "transfer:funds", description: "Transfer money"),
        ]
        api.authorizationDetails = [.init(type: "money_transfer")]
        api.allowOfflineAccess = true
        try await runtime.store.insertResourceServer(api)
    }

    private func upsert(_ client: Client, secret: String?, now: Date) async throws {
        let hash = secret.map(SecretHash.sha256Hex)
        if var existing = try await runtime.store.client(id: client.clientID) {
            existing.secretHash = hash
            // A tenant seeded before SPEC §4's enforcement keeps working with the method the new secret is for.
            existing.client.tokenEndpointAuthMethod = client.tokenEndpointAuthMethod
            existing.updatedAt = now
            try await runtime.store.updateClient(existing)
        } else {
            try await runtime.store.insertClient(
                ClientRecord(client: client, secretHash: hash, createdAt: now, updatedAt: now))
        }
    }
}

extension DemoTenant {
    /// A ready-to-open login of the public demo client (SPEC §1 quick start): a fresh PKCE pair
    /// (RFC 7636 §4.1–4.2), the `/authorize` URL carrying its S256 challenge, and the curl line that redeems
    /// the code with its verifier.
    public struct QuickStartLogin: Sendable {
        public var verifier: String
        public var url: String
        /// The redeeming curl line, with `CODE` where the code goes.
        public var redeem: String
    }

    public static func quickStartLogin(issuer: String) -> QuickStartLogin {
        let verifier = RandomToken.make(bytes: 32)
        var components = URLComponents(string: issuer + "authorize")!
        components.queryItems = [
            URLQueryItem(name: "response_type", value: "code"),
            URLQueryItem(name: "client_id", value: nativeClientID),
            URLQueryItem(name: "redirect_uri", value: callback(issuer: issuer)),
            URLQueryItem(name: "scope", value: "openid profile email offline_access read:balance"),
            URLQueryItem(name: "audience", value: apiIdentifier),
            URLQueryItem(name: "state", value: RandomToken.make(bytes: 16)),
            URLQueryItem(name: "code_challenge", value: SecretHash.sha256Base64URL(verifier)),
            URLQueryItem(name: "code_challenge_method", value: CodeChallenge.s256),
        ]
        // Keep `+`, `:` and `/` unambiguous for every form decoder.
        let url = components.url!.absoluteString.replacingOccurrences(of: "+", with: "%2B")
        return QuickStartLogin(
            verifier: verifier, url: url, redeem: redeemCommand(issuer: issuer, code: "CODE", verifier: verifier))
    }

    /// `{issuer}demo/callback`, the demo clients' callback.
    static func callback(issuer: String) -> String { issuer + "demo/callback" }

    /// The curl line that redeems `code` at the token endpoint (SPEC §5), as the client it was issued to
    /// authenticates: the public native client by `client_id` alone, a confidential one (`demo-web`, after
    /// native-to-web) with its secret in the body, as `demo-web` is registered (`client_secret_post`; a
    /// placeholder: the page never shows a secret); `code_verifier` when the code was issued with a PKCE challenge.
    static func redeemCommand(
        issuer: String, code: String, verifier: String?, clientID: String = nativeClientID, confidential: Bool = false
    ) -> String {
        var command = "curl -s \(issuer)oauth/token -d grant_type=authorization_code"
        command += " -d client_id=\(clientID)" + (confidential ? " -d client_secret=WEB_CLIENT_SECRET" : "")
        command += " --data-urlencode redirect_uri=\(callback(issuer: issuer)) -d code=\(code)"
        if let verifier { command += " -d code_verifier=\(verifier)" }
        return command
    }

    /// `GET /demo/callback` shows the code (or error) it received and the curl line that redeems it, filled in
    /// for the client the code was issued to, with the verifier when this server made it (the quick start's
    /// login); `GET /demo/`, the demo clients' post-logout address, shows the same page without a code.
    static func addRoutes(
        to router: Router<WardenRequestContext>, issuer: String, codes: any ArtefactStore, clock: any WardenClock
    ) {
        let page: @Sendable (Request, WardenRequestContext) async throws -> Response = { request, _ in
            let query = QueryParameters(request.uri.query)
            let code = query?["code"]
            var curl: String?
            var hint: String?
            if let code {
                let grant = try await codes.peekArtefact(
                    kind: AuthorizationCodeGrant.artefactKind, hash: SecretHash.sha256Hex(code), now: clock.now()
                ).flatMap { try? JSONDecoder().decode(AuthorizationCodeGrant.self, from: Data($0.utf8)) }
                let clientID = grant?.clientID ?? nativeClientID
                let verifier = grant?.codeChallenge.map { DemoLogins.shared.verifier(challenge: $0) ?? "VERIFIER" }
                let confidential = clientID == webClientID
                curl = redeemCommand(
                    issuer: issuer, code: code, verifier: verifier, clientID: clientID, confidential: confidential)
                hint = DemoCallbackPage.hint(
                    known: grant != nil, verifierKnown: verifier != "VERIFIER", confidential: confidential)
            }
            return PageRenderer.shared.response(
                DemoCallbackPage(
                    code: code, state: query?["state"], curl: curl, hint: hint,
                    error: query?["error"], errorDescription: query?["error_description"]))
        }
        router.get("demo/callback", use: page)
        router.get("demo", use: page)
    }
}

/// The code verifiers of the quick-start logins this process printed (by their S256 challenge), so that
/// `/demo/callback` shows a curl line that runs as printed. The last 16 are kept; a verifier is no secret
/// once printed on the operator's terminal, and a code is useless without it only to someone else.
final class DemoLogins: Sendable {
    static let shared = DemoLogins()
    private let verifiers = Mutex<[(challenge: String, verifier: String)]>([])

    func remember(verifier: String) {
        verifiers.withLock { list in
            list.append((SecretHash.sha256Base64URL(verifier), verifier))
            if list.count > 16 { list.removeFirst(list.count - 16) }
        }
    }

    func verifier(challenge: String) -> String? {
        verifiers.withLock { list in list.last { $0.challenge == challenge }?.verifier }
    }
}
