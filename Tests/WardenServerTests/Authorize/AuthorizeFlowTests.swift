import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
import WardenCore
import WardenServer
import WardenTesting
import WardenWire

/// The authorization code flow through the hosted login (SPEC §5): codes and what they stand for, SSO
/// reuse, `prompt`, `max_age`, `form_post`, consent and RBAC scope filtering (SPEC §9).
@Suite("/authorize flow")
struct AuthorizeFlowTests {
    @Test func loginProducesACodeWhoseGrantHasTheRequestedFields() async throws {
        let fixture = try await FrontChannelFixture.make()
        try await fixture.warden.test { http in
            var browser = Browser(http)
            let response = try await fixture.signIn(&browser, ["scope": "openid profile email offline_access"])
            #expect(response.status == .found)
            #expect(response.headers[.location]?.hasPrefix(FrontChannelFixture.callback + "?code=") == true)
            let parameters = response.redirectParameters
            #expect(parameters["state"] == "xyzABC123")
            let code = try #require(parameters["code"])
            #expect(code.utf8.count >= 43)

            let grant = try await fixture.storedGrant(code: code)
            #expect(grant.clientID == fixture.clientID)
            #expect(grant.redirectURI == FrontChannelFixture.callback)
            #expect(grant.codeChallenge == FrontChannelFixture.challenge)
            #expect(grant.userID == fixture.userID)
            #expect(grant.scope == ["openid", "profile", "email", "offline_access"])
            #expect(grant.audience == nil)
            #expect(grant.nonce == "n-0S6_WzA2Mj")
            #expect(abs(grant.authTime.timeIntervalSince(fixture.warden.clock.now())) < 1)
            #expect(!grant.familyID.isEmpty)
            let session = try #require(try await fixture.warden.runtime.store.session(id: grant.sessionID))
            #expect(session.userID == fixture.userID)

            let user = try #require(try await fixture.warden.runtime.store.user(id: fixture.userID))
            #expect(user.user.loginsCount == 1)
            #expect(user.user.lastLogin != nil)
            let success = try await fixture.events("s")
            #expect(success.count == 1)
            #expect(success.first?.userID == fixture.userID)
            #expect(success.first?.clientID == fixture.clientID)

            fixture.warden.clock.advance(by: AuthorizationCodeGrant.lifetime + 1)
            let expired = try await fixture.warden.runtime.store.peekArtefact(
                kind: AuthorizationCodeGrant.artefactKind, hash: SecretHash.sha256Hex(code),
                now: fixture.warden.clock.now())
            #expect(expired == nil)
        }
    }

    @Test func anSSOSessionAnswersWithoutASecondLogin() async throws {
        let fixture = try await FrontChannelFixture.make()
        // A sign-in 0.4 ms before a whole second: stored to the millisecond, that instant rounds up into the next
        // second, and the first code must still carry the auth_time the session keeps.
        let fraction = fixture.warden.clock.now().timeIntervalSince1970.truncatingRemainder(dividingBy: 1)
        fixture.warden.clock.advance(by: 1.9996 - fraction)
        try await fixture.warden.test { http in
            var browser = Browser(http)
            let first = try await fixture.signIn(&browser)
            let firstGrant = try await fixture.storedGrant(code: try #require(first.redirectParameters["code"]))
            fixture.warden.clock.advance(by: 600)
            for prompt in [nil, "none"] {
                let again = try await browser.get(fixture.authorizeURI(["prompt": prompt, "state": "second"]))
                #expect(again.status == .found)
                #expect(again.redirectParameters["state"] == "second")
                let grant = try await fixture.storedGrant(code: try #require(again.redirectParameters["code"]))
                #expect(grant.sessionID == firstGrant.sessionID)
                #expect(Int(grant.authTime.timeIntervalSince1970) == Int(firstGrant.authTime.timeIntervalSince1970))
            }
            #expect(try await fixture.events("s").count == 1)
        }
    }

    /// `prompt=login`, or a last login older than `max_age`, shows the form again; the new login updates
    /// `auth_time` in the same session.
    @Test(arguments: [["prompt": "login"], ["max_age": "60"], ["max_age": "0"]] as [[String: String?]])
    func reauthenticationUpdatesAuthTime(_ changes: [String: String?]) async throws {
        let fixture = try await FrontChannelFixture.make()
        try await fixture.warden.test { http in
            var browser = Browser(http)
            let first = try await fixture.signIn(&browser)
            let firstGrant = try await fixture.storedGrant(code: try #require(first.redirectParameters["code"]))
            fixture.warden.clock.advance(by: 120)
            let second = try await fixture.signIn(&browser, changes)
            let grant = try await fixture.storedGrant(code: try #require(second.redirectParameters["code"]))
            #expect(grant.sessionID == firstGrant.sessionID)
            #expect(grant.authTime.timeIntervalSince(firstGrant.authTime) >= 120)
            #expect(try await fixture.events("s").count == 2)
        }
    }

    @Test func aRecentEnoughLoginSatisfiesMaxAgeAndPromptNoneFailsWhenItIsTooOld() async throws {
        let fixture = try await FrontChannelFixture.make()
        try await fixture.warden.test { http in
            var browser = Browser(http)
            _ = try await fixture.signIn(&browser)
            fixture.warden.clock.advance(by: 120)
            let recent = try await browser.get(fixture.authorizeURI(["max_age": "600"]))
            #expect(recent.redirectParameters["code"] != nil)
            let tooOld = try await browser.get(fixture.authorizeURI(["max_age": "60", "prompt": "none"]))
            #expect(tooOld.redirectParameters["error"] == "login_required")
        }
    }

    @Test func sessionsEndAfterThreeIdleDaysAndAfterThirtyDays() async throws {
        let fixture = try await FrontChannelFixture.make()
        try await fixture.warden.test { http in
            var browser = Browser(http)
            _ = try await fixture.signIn(&browser)
            let none = fixture.authorizeURI(["prompt": "none"])
            for _ in 0..<10 {
                fixture.warden.clock.advance(by: 2.9 * 86_400)
                #expect(try await browser.get(none).redirectParameters["code"] != nil)
            }
            fixture.warden.clock.advance(by: 86_400 + 1)
            #expect(try await browser.get(none).redirectParameters["error"] == "login_required")

            _ = try await fixture.signIn(&browser)
            fixture.warden.clock.advance(by: 3 * 86_400 + 1)
            #expect(try await browser.get(none).redirectParameters["error"] == "login_required")
        }
    }

    @Test func formPostAnswersWithAnAutoSubmittingFormThatHasAButton() async throws {
        let fixture = try await FrontChannelFixture.make()
        try await fixture.warden.test { http in
            var browser = Browser(http)
            let response = try await fixture.signIn(&browser, ["response_mode": "form_post"])
            #expect(response.status == .ok)
            let html = response.text
            #expect(html.contains("<form method=\"post\" action=\"\(FrontChannelFixture.callback)\">"))
            #expect(hiddenField("state", in: html) == "xyzABC123")
            let code = try #require(hiddenField("code", in: html))
            #expect(try await fixture.storedGrant(code: code).clientID == fixture.clientID)
            #expect(html.contains("<script>document.forms[0].submit()</script>"))
            #expect(html.contains("<button type=\"submit\">Continue</button>"))
            #expect(response.headers[.contentSecurityPolicy]?.contains("script-src 'sha256-") == true)
        }
    }

    @Test func enforcedPoliciesGrantOnlyTheAPIScopesTheUserHoldsThroughRoles() async throws {
        let fixture = try await FrontChannelFixture.make()
        let api = try await fixture.warden.makeAPI(scopes: ["read:things", "write:things"]) {
            $0.enforcePolicies = true
        }
        let store = fixture.warden.runtime.store
        let role = Role(id: RandomToken.identifier(prefix: "rol_"), name: "reader", description: nil)
        try await store.insertRole(role)
        try await store.addPermissions(
            [Permission(resourceServerIdentifier: api.identifier, permissionName: "read:things")], toRole: role.id)
        try await store.assignRoles([role.id], toUser: fixture.userID)
        try await fixture.warden.test { http in
            var browser = Browser(http)
            let response = try await fixture.signIn(
                &browser, ["audience": api.identifier, "scope": "openid read:things write:things offline_access"])
            let grant = try await fixture.storedGrant(code: try #require(response.redirectParameters["code"]))
            #expect(grant.audience == api.identifier)
            #expect(grant.scope == ["openid", "read:things", "offline_access"])
        }
    }

    @Test func withoutEnforcedPoliciesTheAPIScopesItDefinesAreGranted() async throws {
        let fixture = try await FrontChannelFixture.make()
        let api = try await fixture.warden.makeAPI(scopes: ["read:things", "write:things"])
        try await fixture.warden.test { http in
            var browser = Browser(http)
            let response = try await fixture.signIn(
                &browser, ["audience": api.identifier, "scope": "openid write:things undefined:scope"])
            let grant = try await fixture.storedGrant(code: try #require(response.redirectParameters["code"]))
            #expect(grant.scope == ["openid", "write:things"])
        }
    }

    @Test func aThirdPartyClientGetsTheCodeOnlyAfterConsent() async throws {
        let fixture = try await FrontChannelFixture.make { $0.isFirstParty = false }
        let api = try await fixture.warden.makeAPI(scopes: ["read:things"]) {
            $0.scopes = [.init(value: "read:things", description: "Read your things")]
        }
        try await fixture.warden.test { http in
            var browser = Browser(http)
            let page = try await fixture.signIn(&browser, ["audience": api.identifier, "scope": "openid read:things"])
            #expect(page.status == .ok)
            let html = page.text
            #expect(html.contains("Read your things"))
            #expect(html.contains("name=\"action\" value=\"accept\""))
            #expect(html.contains("name=\"action\" value=\"deny\""))
            let response = try await browser.post(
                "/u/consent",
                [
                    ("state", try #require(hiddenField("state", in: html))),
                    ("csrf", try #require(hiddenField("csrf", in: html))), ("action", "accept"),
                ])
            let grant = try await fixture.storedGrant(code: try #require(response.redirectParameters["code"]))
            #expect(grant.scope == ["openid", "read:things"])
            #expect(response.redirectParameters["state"] == "xyzABC123")
        }
    }

    @Test func denyingConsentAnswersAccessDenied() async throws {
        let fixture = try await FrontChannelFixture.make { $0.isFirstParty = false }
        try await fixture.warden.test { http in
            var browser = Browser(http)
            let html = try await fixture.signIn(&browser).text
            let response = try await browser.post(
                "/u/consent",
                [
                    ("state", try #require(hiddenField("state", in: html))),
                    ("csrf", try #require(hiddenField("csrf", in: html))), ("action", "deny"),
                ])
            #expect(response.status == .found)
            #expect(response.redirectParameters["error"] == "access_denied")
            #expect(response.redirectParameters["state"] == "xyzABC123")
            #expect(response.redirectParameters["code"] == nil)

            let silent = try await browser.get(fixture.authorizeURI(["prompt": "none"]))
            #expect(silent.redirectParameters["error"] == "consent_required")
        }
    }

    @Test func consentWithoutTheCSRFTokenIsRefused() async throws {
        let fixture = try await FrontChannelFixture.make { $0.isFirstParty = false }
        try await fixture.warden.test { http in
            var browser = Browser(http)
            let html = try await fixture.signIn(&browser).text
            let response = try await browser.post(
                "/u/consent", [("state", try #require(hiddenField("state", in: html))), ("action", "accept")])
            #expect(response.status == .forbidden)
            #expect(response.headers[.location] == nil)
        }
    }
}

/// The demo tenant's quick-start login (SPEC §1): its URL starts a valid flow for alice, and
/// `/demo/callback` shows the code with the curl line that redeems it.
@Suite("demo quick start")
struct AuthorizeDemoTests {
    @Test func theQuickStartLoginURLLeadsToACodeShownOnTheCallbackPage() async throws {
        let warden = try await TestWarden.make()
        _ = try await DemoTenant(runtime: warden.runtime).seed()
        let login = DemoTenant.quickStartLogin(issuer: warden.runtime.issuer)
        #expect(login.redeem.contains("code_verifier=\(login.verifier)"))
        try await warden.test { http in
            var browser = Browser(http)
            let start = try await browser.get(String(login.url.dropFirst(warden.runtime.issuer.count - 1)))
            let form = try await browser.get(try #require(start.headers[.location]))
            let html = form.text
            let callback = try await browser.post(
                "/u/login",
                [
                    ("state", try #require(hiddenField("state", in: html))),
                    ("csrf", try #require(hiddenField("csrf", in: html))), ("username", DemoTenant.userEmail),
                    ("password", DemoTenant.userPassword),
                ])
            let location = try #require(callback.headers[.location])
            #expect(location.hasPrefix(warden.runtime.issuer + "demo/callback?code="))
            let code = try #require(callback.redirectParameters["code"])
            let page = try await browser.get(String(location.dropFirst(warden.runtime.issuer.count - 1)))
            #expect(page.status == .ok)
            #expect(page.text.contains("-d code=\(code) -d code_verifier=VERIFIER"))
            #expect(try await browser.get("/demo/").text.contains("No authorization code here."))
        }
    }
}
