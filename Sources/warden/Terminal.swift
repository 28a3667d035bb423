import Foundation
import WardenServer

/// What the CLI tells a person on the terminal (stderr), kept out of the structured log.
enum Terminal {
    static func stderr(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    static func printManagementClient(id: String, secret: String, issuer: String) {
        stderr(
            """

            ┌ Warden Management client created (shown once; store it now)
            │ client_id:     \(id)
            │ client_secret: \(secret)
            │ Set WARDEN_BOOTSTRAP_CLIENT_ID / WARDEN_BOOTSTRAP_CLIENT_SECRET to choose them yourself.
            └ token: curl -s \(issuer)oauth/token -d grant_type=client_credentials -d client_id=\(id) \\
                       -d client_secret=\(secret) --data-urlencode audience=\(issuer)api/v2/

            """)
    }

    static func printQuickStart(_ seeded: DemoTenant.Seeded, issuer: String) {
        let login = DemoTenant.quickStartLogin(issuer: issuer)
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
            │   then, with CODE from the /demo/callback page (valid 60 s):
            │   \(login.redeem)
            │
            │ Discovery:  curl -s \(issuer).well-known/openid-configuration
            │ JWKS:       curl -s \(issuer).well-known/jwks.json
            └ Health:     curl -s \(issuer)readyz

            """)
    }
}
