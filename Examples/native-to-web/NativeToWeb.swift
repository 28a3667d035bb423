import ArgumentParser
import Foundation
import WardenClient
import WardenWire

/// Native-to-web SSO from a native app's side (SPEC §8): log in with PKCE and `offline_access` as the native
/// client, exchange the refresh token for a session transfer token, and print the URL and the cookie that open
/// the web app already logged in.
@main
struct NativeToWeb: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "native-to-web",
        abstract: "Log in as a native app (PKCE), then open the web app logged in with a session transfer token.",
        discussion: """
            Without --username, prints the native client's /authorize URL: open it, sign in, and paste the address \
            the browser lands on (the /demo/callback page). With --username and --password, signs in through the \
            hosted login form over HTTP by itself. Then redeems the code (RFC 7636), exchanges the refresh token \
            for a session transfer token (grant_type=refresh_token, audience urn:{host}:session_transfer), and \
            prints the web client's /authorize URL carrying it, and the cookie a WebView would inject instead. \
            The token is single-use, lives 60 s and is bound to this machine's IP address (the demo's default).

            Example (the demo tenant of `warden serve --demo`):
              native-to-web --username alice@example.com --password 'correct horse battery staple'
            """)

    @Option(help: "The Warden to log in with.") var issuer = "http://127.0.0.1:8080/"
    @Option(name: .customLong("client-id"), help: "The native (public) client.") var clientID = "demo-native"
    @Option(name: .customLong("web-client-id"), help: "The web client to open.") var webClientID = "demo-web"
    @Option(
        name: .customLong("redirect-uri"),
        help: "The native client's callback (default: {issuer}demo/callback); also used for the web client.")
    var redirectURI: String?
    @Option(help: "Sign in without a browser: the user's e-mail address.") var username: String?
    @Option(help: "Sign in without a browser: the password.") var password: String?

    func validate() throws {
        if (username == nil) != (password == nil) { throw ValidationError("give both --username and --password") }
    }

    func run() async throws {
        guard let issuerURL = URL(string: issuer),
            let callback = URL(string: redirectURI ?? issuerURL.absoluteString + "demo/callback")
        else { throw ValidationError("--issuer and --redirect-uri must be URLs") }
        let native = try await WardenClient.discover(issuer: issuerURL, clientID: clientID)
        let login = native.authorizationRequest(
            redirectURI: callback, scope: ["openid", "profile", "email", "offline_access"])
        let callbackURL = try await signIn(login, native: native)

        let tokens = try await native.exchangeCode(
            try native.authorizationCode(from: callbackURL, for: login), for: login)
        guard let refreshToken = tokens.refreshToken, let idToken = tokens.idToken else {
            throw ValidationError("the token response has no refresh token or ID token (is offline_access allowed?)")
        }
        let user = try await native.validateIDToken(idToken, nonce: login.nonce)
        say("Native app signed in as \(user.all["email"]?.stringValue ?? user.subject) (sub \(user.subject)).")

        let transfer = try await native.sessionTransfer(refreshToken: refreshToken)
        var webConfiguration = native.configuration
        webConfiguration.clientID = webClientID
        webConfiguration.authentication = .none
        let web = WardenClient(configuration: webConfiguration)
        let opening = WebAppOpening(
            authorization: web.authorizationRequest(redirectURI: callback, scope: ["openid", "profile", "email"]),
            token: transfer, issuer: native.configuration.issuer)
        say(
            """
            Session transfer token (single use, \(transfer.expiresIn) s, bound to this machine): \(transfer.token)

            Open the web app (\(webClientID)) logged in, either with the token in the URL:
              URL: \(opening.urlWithToken.absoluteString)
            or, in a WebView, inject this cookie and load the URL without the token:
              Cookie: \(opening.cookie)
              Cookie URL: \(opening.authorization.url.absoluteString)
            The web app redeems the code it gets with its PKCE verifier (/demo/callback's curl line asks for it):
              Code verifier: \(opening.authorization.codeVerifier)
            """)
    }

    /// The callback URL of the login: by the hosted form over HTTP with --username/--password, else by a person
    /// in a browser who pastes the address they land on.
    private func signIn(_ login: AuthorizationRequest, native: WardenClient) async throws -> URL {
        if let username, let password {
            return try await HostedLogin(transport: AsyncHTTPTransport.shared, username: username, password: password)
                .callback(from: login.url, redirectURI: login.redirectURI)
        }
        say("Open this URL in a browser and sign in:\n\n  \(login.url.absoluteString)\n")
        say("Then paste the address of the page you land on (\(login.redirectURI.absoluteString)?code=…):")
        guard let line = readLine(), let url = URL(string: line.trimmingCharacters(in: .whitespaces)) else {
            throw ValidationError("no callback URL given")
        }
        return url
    }
}
