import Foundation
import WardenServer

/// What the CLI tells a person on the terminal (stderr), kept out of the structured log.
enum Terminal {
    static func stderr(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    /// The management client, printed last so it does not scroll away under the quick start: its secret when
    /// this start made it (shown this once), else where the secret comes from.
    static func printManagementClient(id: String, createdSecret: String?, issuer: String, configured: Bool) {
        let token = """
            curl -s \(issuer)oauth/token -d grant_type=client_credentials -d client_id=\(id) \\
                       -d client_secret=\(createdSecret ?? "$SECRET") --data-urlencode audience=\(issuer)api/v2/
            """
        if let createdSecret {
            stderr(
                """

                ┌ Warden Management client created — store the secret now: it is shown this once
                │ client_id:     \(id)
                │ client_secret: \(createdSecret)
                │ (the README's Quick start calls them $ID and $SECRET; setting WARDEN_BOOTSTRAP_CLIENT_ID and
                │ WARDEN_BOOTSTRAP_CLIENT_SECRET chooses them, and on a later start resets the secret)
                └ token: \(token)

                """)
        } else {
            let origin =
                configured
                ? "the secret is WARDEN_BOOTSTRAP_CLIENT_SECRET"
                : "its secret was shown on the first start; set WARDEN_BOOTSTRAP_CLIENT_ID to this id and "
                    + "WARDEN_BOOTSTRAP_CLIENT_SECRET to a new secret (32+ characters) to reset it"
            stderr(
                """

                ┌ Warden Management client: \(id)
                │ (\(origin))
                └ token: \(token)

                """)
        }
    }

    /// The demo tenant's quick start; `registration` says whether stock MCP clients can register themselves
    /// with the `mcp-bank` example (SPEC §13).
    static func printQuickStart(
        _ seeded: DemoTenant.Seeded, issuer: String, executable: Executable,
        registration: WardenConfiguration.RegistrationMode
    ) {
        let login = seeded.login
        let warden = executable.display
        let agent = executable.sibling("ciba-agent")
        let api = executable.sibling("protected-api")
        let mcpBank = executable.sibling("mcp-bank")
        let registers = registration == .open ? "" : " (once Warden runs with --registration open)"
        stderr(
            """

            ┌ Demo tenant ready
            │ user:   \(DemoTenant.userEmail) / \(DemoTenant.userPassword)  (user_id \(seeded.userID))
            │ API:    \(DemoTenant.apiIdentifier)  scopes read:balance transfer:funds, RAR type money_transfer
            │ public native/SPA client: \(DemoTenant.nativeClientID)  callback \(seeded.callback)
            │ CIBA client:              \(DemoTenant.cibaClientID)  secret \(seeded.cibaClientSecret)
            │ web client:               \(DemoTenant.webClientID)  secret \(seeded.webClientSecret)
            │ (the demo clients' secrets are made anew on every --demo start)
            │
            │ Log in (authorization code flow with PKCE; the code verifier is fresh for this start):
            │   open:     \(login.url)
            │   verifier: \(login.verifier)
            │   the /demo/callback page then shows the curl line that redeems the code (valid 60 s):
            │   \(login.redeem)
            │
            │ Ask alice to approve a transfer (CIBA; the approval link is e-mailed — see the outbox folder
            │ warden-mail/ unless --smtp-url is set), then poll with the auth_req_id it answers:
            │   \(cibaStart(seeded, issuer: issuer, requestedExpiry: 3600))
            │   curl -s \(issuer)oauth/token -u \(DemoTenant.cibaClientID):\(seeded.cibaClientSecret) \\
            │     -d grant_type=urn:openid:params:grant-type:ciba -d auth_req_id=AUTH_REQ_ID
            │
            │ Or approve on this machine's terminal (push channel): enrol the terminal authenticator for alice
            │ with this one-time link (made anew on every --demo start, valid 7 days), then listen:
            │   \(warden) authenticator enroll '\(seeded.enrollmentTicketURL)'
            │   \(warden) authenticator listen
            │ and start the request with requested_expiry ≤ 300 so it goes to alice's devices:
            │   \(cibaStart(seeded, issuer: issuer, requestedExpiry: 300))
            │ or let the example agent ask her (README "Walkthrough"; start the bank API first, in its own
            │ terminal\(api.built ? "" : "; build both with `\(executable.buildCommand)` in the Warden checkout")):
            │   \(api.display) --issuer \(issuer)
            │   WARDEN_CLIENT_SECRET='\(seeded.cibaClientSecret)' \(agent.display) --issuer \(issuer) --user-id '\(seeded.userID)'
            │
            │ Or connect an MCP client to the example MCP server at \(DemoTenant.mcpBankResource): it finds Warden and
            │ registers itself\(registers), and each transfer waits for alice's approval as above
            │ (README "Protect an MCP server with Warden"):
            │   WARDEN_CLIENT_SECRET='\(seeded.mcpBankClientSecret)' \(mcpBank.display) --issuer \(issuer)
            │
            │ Discovery:  curl -s \(issuer).well-known/openid-configuration
            │ JWKS:       curl -s \(issuer).well-known/jwks.json
            └ Health:     curl -s \(issuer)readyz
            """)
    }

    /// The `/bc-authorize` curl line of the quick start (SPEC §6.1): alice approves a 2,500 USD transfer with the
    /// `transfer:funds` scope, as the walkthrough's bank API requires, by e-mail (`requestedExpiry` over 300) or
    /// on her push-enrolled devices.
    static func cibaStart(_ seeded: DemoTenant.Seeded, issuer: String, requestedExpiry: Int) -> String {
        let hint = #"{"format":"iss_sub","iss":"\#(issuer)","sub":"\#(seeded.userID)"}"#
        let details =
            #"[{"type":"money_transfer","instructedAmount":{"amount":2500,"currency":"USD"},"#
            + #""beneficiary":"Hanna Herwitz"}]"#
        return "curl -s \(issuer)bc-authorize -u \(DemoTenant.cibaClientID):\(seeded.cibaClientSecret) "
            + "--data-urlencode 'login_hint=\(hint)' --data-urlencode 'scope=openid transfer:funds' "
            + "--data-urlencode 'binding_message=Transfer 2500 USD to Hanna Herwitz' "
            + "--data-urlencode audience=\(DemoTenant.apiIdentifier) -d requested_expiry=\(requestedExpiry) "
            + "--data-urlencode 'authorization_details=\(details)'"
    }
}

/// How to name a binary of this build in a printed command so that it runs as printed: `.build/debug/warden`
/// from the checkout it was built in (the start command's own build), the bare name when the `PATH` finds this
/// very file, its absolute path otherwise.
struct Executable {
    /// The resolved path of the running binary.
    var path: String
    /// The working directory the commands will be pasted into (this process's).
    var workingDirectory: String

    static var current: Executable {
        // Linux names a binary rebuilt (replaced) since it started "PATH (deleted)": the commands are for the new one.
        let path =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")).map {
                $0.hasSuffix(" (deleted)") ? String($0.dropLast(" (deleted)".count)) : $0
            }
            ?? URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.path
        return Executable(path: path, workingDirectory: FileManager.default.currentDirectoryPath)
    }

    /// This binary as a command.
    var display: String { display(path) }

    /// The command that builds the examples next to this binary: `swift build`, with `-c release` for a release
    /// build's binary.
    var buildCommand: String {
        URL(fileURLWithPath: path).deletingLastPathComponent().lastPathComponent == "release"
            ? "swift build -c release" : "swift build"
    }

    /// Another product of the same build (an example), and whether it is built.
    func sibling(_ name: String) -> (display: String, built: Bool) {
        let other = URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent(name).path
        return (display(other), FileManager.default.isExecutableFile(atPath: other))
    }

    private func display(_ file: String) -> String {
        let name = URL(fileURLWithPath: file).lastPathComponent
        for configuration in ["release", "debug"] {
            let candidate = ".build/\(configuration)/\(name)"
            if resolved(workingDirectory + "/" + candidate) == resolved(file) { return candidate }
        }
        let searchPath = ProcessInfo.processInfo.environment["PATH"] ?? ""
        for directory in searchPath.split(separator: ":") where resolved("\(directory)/\(name)") == resolved(file) {
            return name
        }
        return file
    }

    private func resolved(_ file: String) -> String? {
        guard FileManager.default.fileExists(atPath: file) else { return nil }
        return URL(fileURLWithPath: file).resolvingSymlinksInPath().path
    }
}
