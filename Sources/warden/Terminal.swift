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
            │ Ask alice to approve a transfer (CIBA; the approval link is e-mailed — see the outbox folder
            │ warden-mail/ unless --smtp-url is set), then poll with the auth_req_id it answers:
            │   \(cibaStart(seeded, issuer: issuer, requestedExpiry: 3600))
            │   curl -s \(issuer)oauth/token -u \(DemoTenant.cibaClientID):\(seeded.cibaClientSecret) \\
            │     -d grant_type=urn:openid:params:grant-type:ciba -d auth_req_id=AUTH_REQ_ID
            │
            │ Or approve on this machine's terminal (push channel): enrol the terminal authenticator for alice
            │ with this one-time link (made anew on every --demo start, valid 7 days), then listen:
            │   warden authenticator enroll '\(seeded.enrollmentTicketURL)'
            │   warden authenticator listen
            │ and start the request with requested_expiry ≤ 300 so it goes to alice's devices:
            │   \(cibaStart(seeded, issuer: issuer, requestedExpiry: 300))
            │ or let the example agent ask her (README "Walkthrough"; start `swift run protected-api` first):
            │   WARDEN_CLIENT_SECRET='\(seeded.cibaClientSecret)' swift run ciba-agent --user-id '\(seeded.userID)'
            │
            │ Discovery:  curl -s \(issuer).well-known/openid-configuration
            │ JWKS:       curl -s \(issuer).well-known/jwks.json
            └ Health:     curl -s \(issuer)readyz

            """)
    }

    /// The `/bc-authorize` curl line of the quick start (SPEC §6.1): a money transfer for alice, by e-mail
    /// (`requestedExpiry` over 300) or to her push-enrolled devices.
    static func cibaStart(_ seeded: DemoTenant.Seeded, issuer: String, requestedExpiry: Int) -> String {
        let hint = #"{"format":"iss_sub","iss":"\#(issuer)","sub":"\#(seeded.userID)"}"#
        let details =
            #"[{"type":"money_transfer","instructedAmount":{"amount":2500,"currency":"EUR"},"#
            + #""beneficiary":"Hanna Herwitz"}]"#
        return "curl -s \(issuer)bc-authorize -u \(DemoTenant.cibaClientID):\(seeded.cibaClientSecret) "
            + "--data-urlencode 'login_hint=\(hint)' -d scope=openid "
            + "--data-urlencode 'binding_message=Transfer 2500 EUR' "
            + "--data-urlencode audience=\(DemoTenant.apiIdentifier) -d requested_expiry=\(requestedExpiry) "
            + "--data-urlencode 'authorization_details=\(details)'"
    }
}
