import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing
import WardenCore
import WardenTesting
import WardenWire

@testable import WardenServer

/// The database connection's accounts (SPEC §15.1) in process: the sign-up page continuing the login,
/// `/dbconnections/*` and their error shapes, the reset and verification links (single use, the policy and
/// history, what a reset ends), and the Management API's password policy and tickets.
@Suite("accounts")
struct AccountsTests {
    /// The path of a link the service made (`{issuer}u/…`), for the in-process client.
    static func path(_ link: String, _ warden: TestWarden) -> String {
        "/" + link.dropFirst(warden.runtime.issuer.count)
    }

    /// Sets options of the database connection (each test has its own in-memory database).
    static func setDatabaseOptions(_ warden: TestWarden, _ options: [String: JSONValue]) async throws {
        var connection = try #require(try await warden.runtime.store.connection(id: Connection.databaseID))
        connection.options.merge(options) { $1 }
        try await warden.runtime.store.updateConnection(connection)
    }

    @Test func screenHintSignupShowsTheFormAndANewAccountContinuesTheLogin() async throws {
        let fixture = try await FrontChannelFixture.make()
        try await fixture.warden.test { http in
            var browser = Browser(http)
            let start = try await browser.get(fixture.authorizeURI(["screen_hint": "signup"]))
            let location = try #require(start.headers[.location])
            #expect(location.hasPrefix("/u/signup?state="))
            let form = try await browser.get(location)
            #expect(form.status == .ok)
            #expect(form.text.contains("Create your account"))
            let email = "New-\(RandomToken.identifier(prefix: "", length: 8))@Example.com"
            let fields = { (password: String) in
                [
                    ("state", hiddenField("state", in: form.text)!), ("csrf", hiddenField("csrf", in: form.text)!),
                    ("email", email), ("password", password),
                ]
            }
            let weak = try await browser.post("/u/signup", fields("short"))
            #expect(weak.status == .badRequest)
            #expect(weak.text.contains("At least 8 characters in length"), "the broken rule is named")
            let created = try await browser.post("/u/signup", fields("Signup-Passw0rd"))
            #expect(created.redirectParameters["code"] != nil, "\(created.status) \(created.text)")
            let user = try #require(try await fixture.warden.runtime.store.user(email: email.lowercased()))
            #expect(user.user.emailVerified == false)
            #expect(try await fixture.events("ss").map(\.userID) == [user.user.userID])
            #expect(try await fixture.events("fs").count == 1)
            #expect(try await fixture.events("s").map(\.userID) == [user.user.userID])

            // The same address again, from another login: the form's one message, never "exists".
            var second = Browser(http)
            let again = try await second.get(
                try #require(try await second.get(fixture.authorizeURI(["screen_hint": "signup"])).headers[.location]))
            let refused = try await second.post(
                "/u/signup",
                [
                    ("state", hiddenField("state", in: again.text)!), ("csrf", hiddenField("csrf", in: again.text)!),
                    ("email", email.uppercased()), ("password", "Signup-Passw0rd"),
                ])
            #expect(refused.status == .badRequest)
            #expect(refused.text.contains("Something went wrong, please try again later"))
            #expect(!refused.text.lowercased().contains("exist"))
        }
    }

    @Test func theLoginPageLinksToSignUpAndResetUnlessSignUpIsOff() async throws {
        let fixture = try await FrontChannelFixture.make()
        try await fixture.warden.test { http in
            var browser = Browser(http)
            let login = try await browser.get(
                try #require(try await browser.get(fixture.authorizeURI()).headers[.location]))
            #expect(login.text.contains("/u/signup?state="))
            #expect(login.text.contains("/u/reset-password?state="))
            try await Self.setDatabaseOptions(fixture.warden, ["disable_signup": true])
            let off = try await browser.get(
                try #require(try await browser.get(fixture.authorizeURI()).headers[.location]))
            #expect(!off.text.contains("/u/signup"))
            #expect(off.text.contains("Forgot password?"))
            let signup = try await browser.get(
                try #require(try await browser.get(fixture.authorizeURI(["screen_hint": "signup"])).headers[.location]))
            #expect(signup.text.contains("Sign-up is turned off"))
            #expect(!signup.text.contains("name=\"password\""))
        }
    }

    @Test func dbconnectionsSignupAnswersInTheVendorsShapes() async throws {
        let fixture = try await FrontChannelFixture.make()
        try await fixture.warden.test { http in
            let email = "api-\(RandomToken.identifier(prefix: "", length: 8))@example.com"
            func signUp(_ password: String, email: String = email) async throws -> TestResponse {
                try await http.postJSON(
                    "/dbconnections/signup",
                    """
                    {"client_id":"\(fixture.clientID)","email":"\(email)","password":"\(password)",\
                    "connection":"Username-Password-Authentication","given_name":"Ada","family_name":"Lovelace",\
                    "user_metadata":{"plan":"free"}}
                    """)
            }
            let weak = try await signUp("password")
            #expect(weak.status == .badRequest)
            #expect(weak.json["error"] == "invalid_password")
            #expect(weak.json["code"] == "invalid_password")
            #expect(weak.json["name"] == "PasswordStrengthError")
            #expect(weak.json["statusCode"] == 400)
            #expect(weak.json["description"]?["verified"] == false)
            #expect(weak.json["description"]?["rules"]?.arrayValue?.isEmpty == false)
            #expect(weak.json["policy"]?.stringValue?.hasPrefix("* ") == true)
            #expect(weak.headers[.cacheControl] == "no-store")

            let made = try await signUp("Api-Passw0rd!")
            #expect(made.status == .ok, "\(made.text)")
            #expect(made.json["email"]?.stringValue == email.lowercased())
            #expect(made.json["email_verified"] == false)
            #expect(made.json["name"] == "Ada Lovelace")
            #expect(made.json["user_metadata"]?["plan"] == "free")
            let id = try #require(made.json["_id"]?.stringValue)
            #expect(!id.hasPrefix("auth0|"))
            #expect(try await fixture.warden.runtime.store.user(id: "auth0|" + id) != nil)

            let taken = try await signUp("Api-Passw0rd!", email: email.uppercased())
            #expect(taken.status == .badRequest)
            #expect(taken.json["error"] == "invalid_signup")
            #expect(taken.json["error_description"] == "Invalid sign up")

            try await Self.setDatabaseOptions(fixture.warden, ["disable_signup": true])
            let disabled = try await signUp("Api-Passw0rd!", email: "other-" + email)
            #expect(disabled.json["error"] == "signup_disabled")
            #expect(try await fixture.warden.runtime.store.user(email: "other-" + email) == nil)
        }
    }

    @Test func tenSignUpsPerIPPerHourFailedOnesIncluded() async throws {
        let fixture = try await FrontChannelFixture.make()
        try await fixture.warden.test { http in
            var statuses: [HTTPResponse.Status] = []
            for index in 0..<11 {
                let response = try await http.postJSON(
                    "/dbconnections/signup",
                    """
                    {"client_id":"\(fixture.clientID)","email":"limit-\(index)-\(fixture.email)",\
                    "password":"\(index.isMultiple(of: 2) ? "weak" : "Limit-Passw0rd!")",\
                    "connection":"Username-Password-Authentication"}
                    """)
                statuses.append(response.status)
                if index == 10 {
                    #expect(response.json["error"] == "too_many_requests")
                    #expect(response.headers[.retryAfter] != nil)
                }
            }
            #expect(statuses.last == .tooManyRequests)
            #expect(statuses.dropLast().allSatisfy { $0 != .tooManyRequests })
            fixture.warden.clock.advance(by: 3601)
            let later = try await http.postJSON(
                "/dbconnections/signup",
                """
                {"client_id":"\(fixture.clientID)","email":"limit-later-\(fixture.email)","password":"Limit-Passw0rd!",\
                "connection":"Username-Password-Authentication"}
                """)
            #expect(later.status == .ok)
        }
    }

    @Test func aResetRequestAnswersTheSameForKnownAndUnknownAddresses() async throws {
        let fixture = try await FrontChannelFixture.make()
        try await fixture.warden.test { http in
            var answers: [String] = []
            for email in [fixture.email, "nobody-\(fixture.email)"] {
                let response = try await http.postJSON(
                    "/dbconnections/change_password",
                    """
                    {"client_id":"\(fixture.clientID)","email":"\(email)","connection":"Username-Password-Authentication"}
                    """)
                #expect(response.status == .ok)
                #expect(response.headers[.contentType]?.hasPrefix("text/plain") == true)
                answers.append(response.text)
            }
            #expect(answers[0] == answers[1])
            #expect(try await fixture.events("scpr").map(\.userID) == [fixture.userID])
            #expect(try await fixture.events("fcpr").count == 1)

            // The hosted request page: the same sentence, whatever the address.
            var browser = Browser(http)
            var pages: [String] = []
            for email in [fixture.email, "nobody-\(fixture.email)"] {
                let form = try await browser.get("/u/reset-password")
                let sent = try await browser.post(
                    "/u/reset-password", [("csrf", try #require(hiddenField("csrf", in: form.text))), ("email", email)])
                #expect(sent.status == .ok)
                pages.append(sent.text.replacingOccurrences(of: email, with: "E"))
            }
            #expect(pages[0] == pages[1])
            #expect(pages[0].contains("If that address has an account, we sent a link"))
            let noCSRF = try await http.postForm("/u/reset-password", [("email", fixture.email)])
            #expect(noCSRF.status == .forbidden)
        }
    }

    @Test func aResetLinkWorksOnceEndsSessionsAndRefreshTokensAndClearsALockout() async throws {
        let fixture = try await FrontChannelFixture.make()
        let warden = fixture.warden
        try await warden.test { http in
            // A session and a refresh token from before the reset, and a lockout.
            var browser = Browser(http)
            let code = try #require(try await fixture.signIn(&browser).redirectParameters["code"])
            _ = code
            let family = RandomToken.make()
            try await warden.runtime.store.insertRefreshToken(
                RefreshTokenRecord(
                    tokenHash: SecretHash.sha256Hex(family), familyID: family, clientID: fixture.clientID,
                    userID: fixture.userID, audience: nil, scope: ["openid", "offline_access"],
                    authorizationDetails: nil, sessionID: nil, createdAt: warden.clock.now(), expiresAt: nil))
            var locked = Browser(http)
            var form = try await fixture.signIn(&locked, password: "wrong-0")
            for attempt in 1..<10 {
                form = try await fixture.submitLogin(
                    &locked, form: form, email: fixture.email, password: "wrong-\(attempt)")
            }
            #expect(form.text.contains("Too many failed sign-in attempts"))

            let user = try #require(try await warden.runtime.store.user(id: fixture.userID)).user
            let link = try await warden.runtime.accountService.passwordResetTicket(
                for: user, resultURL: FrontChannelFixture.callback, lifetime: nil, markEmailVerified: false,
                clientID: nil)
            var person = Browser(http)
            let page = try await person.get(Self.path(link, warden))
            #expect(page.status == .ok)
            #expect(page.text.contains(fixture.email.lowercased()))
            let ticket = try #require(hiddenField("ticket", in: page.text))
            let csrf = try #require(hiddenField("csrf", in: page.text))
            func post(_ password: String, _ again: String? = nil) async throws -> TestResponse {
                try await person.post(
                    "/u/reset-password",
                    [
                        ("csrf", csrf), ("ticket", ticket), ("password", password),
                        ("password_confirmation", again ?? password),
                    ])
            }
            let differ = try await post("Reset-Passw0rd!", "Reset-Passw0rd?")
            #expect(differ.text.contains("The two passwords differ"))
            let weak = try await post("weakweak")
            #expect(weak.status == .badRequest)
            #expect(weak.text.contains("Choose another password"))
            let changed = try await post("Reset-Passw0rd!")
            #expect(changed.status == .ok, "\(changed.text)")
            #expect(changed.text.contains("Password changed"))
            #expect(changed.text.contains(FrontChannelFixture.callback), "Continue leads to a registered callback")
            let reused = try await post("Reset-Passw0rd-2!")
            #expect(reused.status == .badRequest)
            #expect(reused.text.contains("Link not valid"))
            #expect(try await person.get(Self.path(link, warden)).text.contains("Link not valid"))

            // Signed out everywhere, the refresh token refused, the lock gone, the new password works.
            let sessionCheck = try await browser.get(fixture.authorizeURI(["prompt": "none"]))
            #expect(sessionCheck.redirectParameters["error"] == "login_required")
            let refreshed = try await http.postForm(
                "/oauth/token",
                [("grant_type", "refresh_token"), ("client_id", fixture.clientID), ("refresh_token", family)])
            #expect(refreshed.json["error"] == "invalid_grant")
            var fresh = Browser(http)
            let signedIn = try await fixture.signIn(&fresh, password: "Reset-Passw0rd!")
            #expect(signedIn.redirectParameters["code"] != nil, "\(signedIn.text)")
            #expect(try await fixture.events("scp").count == 1)
            #expect(try await fixture.events("fcp").count >= 2)
        }
    }

    @Test func theHistoryRefusesARecentPasswordOnResetAndInTheManagementAPI() async throws {
        let fixture = try await FrontChannelFixture.make()
        let warden = fixture.warden
        try await Self.setDatabaseOptions(warden, ["password_history": ["enable": true, "size": 2]])
        try await warden.test { http in
            let token = try await warden.managementToken(client: http)
            func patch(_ password: String) async throws -> TestResponse {
                try await http.execute(
                    uri:
                        "/api/v2/users/\(fixture.userID.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)",
                    method: .patch, headers: [.authorization: "Bearer \(token)", .contentType: "application/json"],
                    body: ByteBuffer(string: #"{"password":"\#(password)"}"#))
            }
            // The current password (stored before the history began) counts.
            let same = try await patch(FrontChannelFixture.password)
            #expect(same.status == .badRequest)
            #expect(same.json["message"]?.stringValue?.hasPrefix("PasswordHistoryError: ") == true)
            #expect(try await patch("First-Passw0rd!").status == .ok)
            #expect(try await patch("Second-Passw0rd!").status == .ok)
            #expect(try await patch("First-Passw0rd!").status == .badRequest, "size 2: the last two")
            #expect(try await patch(FrontChannelFixture.password).status == .ok, "three back is allowed again")
            let weak = try await patch("abc")
            #expect(weak.json["errorCode"] == "invalid_body")
            #expect(weak.json["message"]?.stringValue?.hasPrefix("PasswordStrengthError: ") == true)
        }
    }

    @Test func aVerificationLinkWorksOnceAndOnlyForItsAddress() async throws {
        let fixture = try await FrontChannelFixture.make()
        let warden = fixture.warden
        try await warden.test { http in
            let record = try #require(try await warden.runtime.store.user(id: fixture.userID))
            let link = try await warden.runtime.accountService.verificationTicket(
                for: record.user, resultURL: "https://elsewhere.example/", lifetime: nil, clientID: nil)
            let verified = try await http.execute(uri: Self.path(link, warden), method: .get, headers: [:], body: nil)
            #expect(verified.status == .ok)
            #expect(verified.text.contains("E-mail address verified"))
            #expect(!verified.text.contains("elsewhere.example"), "an unregistered result_url is no link")
            #expect(try await warden.runtime.store.user(id: fixture.userID)?.user.emailVerified == true)
            let again = try await http.execute(uri: Self.path(link, warden), method: .get, headers: [:], body: nil)
            #expect(again.status == .badRequest)
            #expect(again.text.contains("Link not valid"))

            // A link made for an address the user no longer has verifies nothing.
            var changed = try #require(try await warden.runtime.store.user(id: fixture.userID))
            let old = try await warden.runtime.accountService.verificationTicket(
                for: changed.user, resultURL: nil, lifetime: nil, clientID: nil)
            changed.user.email = "changed-" + fixture.email
            changed.user.emailVerified = false
            try await warden.runtime.store.updateUser(changed)
            let stale = try await http.execute(uri: Self.path(old, warden), method: .get, headers: [:], body: nil)
            #expect(stale.status == .badRequest)
            #expect(try await warden.runtime.store.user(id: fixture.userID)?.user.emailVerified == false)
            #expect(try await fixture.events("sv").count == 1)
            #expect(try await fixture.events("fv").count == 2)
        }
    }

    @Test func managementTicketsAndTheVerificationJob() async throws {
        let fixture = try await FrontChannelFixture.make()
        let warden = fixture.warden
        try await warden.test { http in
            let token = try await warden.managementToken(client: http)
            func post(_ path: String, _ json: String) async throws -> TestResponse {
                try await http.postJSON("/api/v2/" + path, json, headers: [.authorization: "Bearer \(token)"])
            }
            let verification = try await post("tickets/email-verification", #"{"user_id":"\#(fixture.userID)"}"#)
            #expect(verification.status == .created)
            #expect(
                verification.json["ticket"]?.stringValue?.hasPrefix(
                    warden.runtime.issuer + "u/email-verification?ticket=") == true)
            let reset = try await post(
                "tickets/password-change",
                #"{"email":"\#(fixture.email)","connection_id":"\#(Connection.databaseID)","ttl_sec":60,"mark_email_as_verified":true}"#
            )
            #expect(reset.status == .created)
            let both = try await post(
                "tickets/password-change",
                #"{"user_id":"\#(fixture.userID)","email":"\#(fixture.email)","connection_id":"\#(Connection.databaseID)"}"#
            )
            #expect(both.status == .badRequest)
            #expect(both.json["errorCode"] == "invalid_body")
            let tooLong = try await post(
                "tickets/password-change", #"{"user_id":"\#(fixture.userID)","ttl_sec":2592001}"#)
            #expect(tooLong.status == .badRequest)
            let unknown = try await post("tickets/email-verification", #"{"user_id":"auth0|nobody"}"#)
            #expect(unknown.json["errorCode"] == "inexistent_user")
            let extra = try await post("tickets/email-verification", #"{"user_id":"\#(fixture.userID)","color":"red"}"#)
            #expect(extra.json["errorCode"] == "invalid_body")

            // The reset ticket marks the address verified once used.
            let link = try #require(reset.json["ticket"]?.stringValue)
            var person = Browser(http)
            let page = try await person.get(Self.path(link, warden))
            let done = try await person.post(
                "/u/reset-password",
                [
                    ("csrf", try #require(hiddenField("csrf", in: page.text))),
                    ("ticket", try #require(hiddenField("ticket", in: page.text))),
                    ("password", "Ticket-Passw0rd!"), ("password_confirmation", "Ticket-Passw0rd!"),
                ])
            #expect(done.status == .ok)
            #expect(try await warden.runtime.store.user(id: fixture.userID)?.user.emailVerified == true)

            let job = try await post("jobs/verification-email", #"{"user_id":"\#(fixture.userID)"}"#)
            #expect(job.status == .created)
            #expect(job.json["type"] == "verification_email")
            #expect(job.json["status"] == "pending")
            let id = try #require(job.json["id"]?.stringValue)
            let read = try await http.execute(
                uri: "/api/v2/jobs/\(id)", method: .get, headers: [.authorization: "Bearer \(token)"], body: nil)
            #expect(read.json["status"] == "completed")

            // create:user_tickets is its own scope.
            let narrow = try await OpenAPIRoutesTests.token(warden, http, scope: "read:users")
            let refused = try await http.postJSON(
                "/api/v2/tickets/email-verification", #"{"user_id":"\#(fixture.userID)"}"#,
                headers: [.authorization: "Bearer \(narrow)"])
            #expect(refused.status == .forbidden)
        }
    }

    @Test func managementCreateAppliesThePolicyAndVerifyEmailQueuesTheMail() async throws {
        let fixture = try await FrontChannelFixture.make()
        let warden = fixture.warden
        try await Self.setDatabaseOptions(
            warden, ["passwordPolicy": "excellent", "password_no_personal_info": ["enable": true]])
        try await warden.test { http in
            let token = try await warden.managementToken(client: http)
            func create(_ password: String, name: String = "Grace Hopper") async throws -> TestResponse {
                try await http.postJSON(
                    "/api/v2/users",
                    #"{"email":"\#(RandomToken.identifier(prefix: "u", length: 8))@example.com","password":"\#(password)","name":"\#(name)","verify_email":true,"connection":"Username-Password-Authentication"}"#,
                    headers: [.authorization: "Bearer \(token)"])
            }
            #expect(try await create("Ab1!Ab1!Ab").status == .created)
            let short = try await create("Ab1!Ab1!A")
            #expect(short.json["message"]?.stringValue == "PasswordStrengthError: Password is too weak")
            let personal = try await create("Grace-Hopper-1906")
            #expect(
                personal.json["message"]?.stringValue == "PasswordNoUserInfoError: Password contains user information")
        }
    }
}
