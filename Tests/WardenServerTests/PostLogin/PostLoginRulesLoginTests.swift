import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
import WardenCore
import WardenTesting
import WardenWire

@testable import WardenServer

/// Post-login rules and policies on logins (SPEC §8 "Post-login rules"): every login — password, SSO session,
/// the password login of a CIBA approval link — runs the enabled rules in `order`, then the embedder's
/// ``PostLoginPolicy`` values; the first that denies ends it with `access_denied` and its reason, logged `f`.
@Suite("post-login rules on logins")
struct PostLoginRulesLoginTests {
    /// Stores a rule directly.
    @discardableResult
    static func addRule(
        _ warden: TestWarden, _ condition: String, reason: String = "Denied by rule", order: Int = 1,
        enabled: Bool = true
    ) async throws -> PostLoginRule {
        let rule = PostLoginRule(
            id: RandomToken.identifier(prefix: PostLoginRule.idPrefix, length: 16), name: reason, enabled: enabled,
            order: order, condition: condition, denyReason: reason)
        try await warden.runtime.store.insertPostLoginRule(rule)
        return rule
    }

    /// Expects the `access_denied` error redirect to the callback with `reason` and the request's state.
    static func expectDenied(
        _ response: TestResponse, _ reason: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(response.status == .found, sourceLocation: sourceLocation)
        #expect(
            response.headers[.location]?.hasPrefix(FrontChannelFixture.callback + "?") == true,
            sourceLocation: sourceLocation)
        #expect(
            response.redirectParameters
                == ["error": "access_denied", "error_description": reason, "state": "xyzABC123"],
            sourceLocation: sourceLocation)
    }

    @Test func aMatchingRuleDeniesAPasswordLoginWithItsReason() async throws {
        let fixture = try await FrontChannelFixture.make()
        let rule = try await Self.addRule(
            fixture.warden, #"event.user.email == "\#(fixture.email.lowercased())""#, reason: "Ann is on holiday")
        try await fixture.warden.test { http in
            var browser = Browser(http)
            let response = try await fixture.signIn(&browser)
            Self.expectDenied(response, "Ann is on holiday")
            #expect(browser.cookies[Browser.sessionCookie] == nil, "no SSO session begins")
            #expect(try await fixture.events("s").isEmpty)
            let failures = try await fixture.events("f")
            #expect(failures.count == 1)
            #expect(failures.first?.description == "Ann is on holiday")
            #expect(failures.first?.userID == fixture.userID)
            #expect(failures.first?.clientID == fixture.clientID)
            #expect(
                failures.first?.details["post_login_rule"] == ["id": .string(rule.id), "name": "Ann is on holiday"])
            #expect(try await fixture.warden.runtime.store.user(id: fixture.userID)?.user.loginsCount == 0)
        }
    }

    @Test func disabledAndNonMatchingRulesDoNotDeny() async throws {
        let fixture = try await FrontChannelFixture.make()
        try await Self.addRule(fixture.warden, "true", enabled: false)
        try await Self.addRule(fixture.warden, #"event.user.email == "someone@else.example""#)
        try await Self.addRule(
            fixture.warden, "event.request.geoip.countryCode != event.session_transfer_token.request.geoip.countryCode")
        try await fixture.warden.test { http in
            var browser = Browser(http)
            let response = try await fixture.signIn(&browser)
            #expect(response.redirectParameters["code"] != nil)
            #expect(try await fixture.events("f").isEmpty)
        }
    }

    @Test func theFirstMatchingRuleInOrderDenies() async throws {
        let fixture = try await FrontChannelFixture.make()
        try await Self.addRule(fixture.warden, "true", reason: "third", order: 3)
        try await Self.addRule(
            fixture.warden, #"event.client.client_id == "\#(fixture.clientID)""#, reason: "second", order: 2)
        try await Self.addRule(fixture.warden, "false", reason: "first", order: 1)
        try await fixture.warden.test { http in
            var browser = Browser(http)
            Self.expectDenied(try await fixture.signIn(&browser), "second")
        }
    }

    @Test func aRuleAlsoDeniesAnSSOSessionAnsweringAuthorize() async throws {
        let fixture = try await FrontChannelFixture.make()
        try await fixture.warden.test { http in
            var browser = Browser(http)
            let signedIn = try await fixture.signIn(&browser)
            #expect(signedIn.redirectParameters["code"] != nil)
            try await Self.addRule(
                fixture.warden, #"event.user.user_id == "\#(fixture.userID)""#, reason: "Session refused")
            for prompt in [nil, "none"] {
                Self.expectDenied(try await browser.get(fixture.authorizeURI(["prompt": prompt])), "Session refused")
            }
            #expect(try await fixture.events("f").count == 2)
            #expect(browser.cookies[Browser.sessionCookie] != nil, "the session itself is left alone")
        }
    }

    @Test("a rule denying a country mismatch between a session transfer token and its consumer")
    func countryMismatch() async throws {
        let warden = try await TestWarden.make()
        try await Self.addRule(
            warden, "event.request.geoip.countryCode != event.session_transfer_token.request.geoip.countryCode",
            reason: "The sign-in comes from another country than the app")
        let check = PostLoginCheck(
            rules: warden.runtime.store, policies: [], ipIntelligence: IPIntelligence(), trustedProxies: [],
            eventLog: warden.runtime.eventLog, clock: warden.clock, logger: warden.runtime.logger)
        let browser = LoginEvent.RequestInfo(ip: "203.0.113.7", asn: 64496, countryCode: "FR")
        let phone = LoginEvent.RequestInfo(ip: "198.51.100.1", asn: 64500, countryCode: "DE")
        let user = User(userID: "auth0|traveller", email: "traveller@example.com", createdAt: warden.clock.now())
        let client = Client(clientID: "web", name: "Web")
        func transfer(from request: LoginEvent.RequestInfo) -> LoginEvent {
            LoginEvent(
                request: browser, sessionTransferToken: .init(clientID: "native", scope: ["openid"], request: request),
                user: user, client: client)
        }
        #expect(
            try await check.decide(transfer(from: phone))
                == .deny(reason: "The sign-in comes from another country than the app"))
        #expect(try await check.decide(transfer(from: browser)) == .allow)
        #expect(try await check.decide(LoginEvent(request: browser, user: user, client: client)) == .allow)
        await warden.flushLogs()
        let failures = try await warden.runtime.store.searchLogs(
            LogFilter(terms: ["type": ["f"]]), ascending: true, page: PageRequest(page: 0, perPage: 10)
        ).items
        #expect(failures.map(\.ip) == ["203.0.113.7"])
        #expect(failures.map(\.userID) == ["auth0|traveller"])
    }

    @Test func aStoredRuleThatNoLongerParsesDenies() async throws {
        let fixture = try await FrontChannelFixture.make()
        try await Self.addRule(fixture.warden, "event.user.email ==", reason: "Broken rule")
        try await fixture.warden.test { http in
            var browser = Browser(http)
            Self.expectDenied(try await fixture.signIn(&browser), "Broken rule")
        }
    }

    @Test func aRuleDeniesTheLoginOfACIBAApprovalLinkWithAPage() async throws {
        let fixture = try await BackchannelFixture.make()
        try await Self.addRule(
            fixture.warden, #"event.client.client_id == "\#(fixture.client.id)""#, reason: "No approvals today")
        try await fixture.warden.test { http in
            _ = try await fixture.started(http: http)
            var browser = Browser(http)
            let start = try await browser.get(try await fixture.approvalPath())
            let form = try await browser.get(try #require(start.headers[.location]))
            let page = try await browser.post(
                "/u/login",
                [
                    ("state", try #require(hiddenField("state", in: form.text))),
                    ("csrf", try #require(hiddenField("csrf", in: form.text))), ("username", fixture.email),
                    ("password", FrontChannelFixture.password),
                ])
            #expect(page.status == .forbidden)
            #expect(page.text.contains("No approvals today"))
        }
    }

    /// A policy that denies `denied` (an e-mail address) and records what it saw.
    struct DenyEmail: PostLoginPolicy {
        let denied: String
        let seen = SeenEvents()

        func evaluate(_ event: LoginEvent) async throws -> PostLoginDecision {
            await seen.append(event)
            return event.user.email == denied ? .deny(reason: "Policy says no") : .allow
        }
    }

    actor SeenEvents {
        var events: [LoginEvent] = []
        func append(_ event: LoginEvent) { events.append(event) }
    }

    /// A front-channel tenant whose runtime has `policies`, with a user of `email`.
    static func fixture(policies: [any PostLoginPolicy], email: String) async throws -> FrontChannelFixture {
        let warden = try await TestWarden.make(postLoginPolicies: policies)
        let client = try await warden.makeClient(grantTypes: [.authorizationCode]) {
            $0.tokenEndpointAuthMethod = TokenEndpointAuthMethod.none
            $0.callbacks = [FrontChannelFixture.callback]
        }
        let userID = try await FrontChannelFixture.addUser(warden, email: email)
        return FrontChannelFixture(warden: warden, clientID: client.id, email: email, userID: userID)
    }

    @Test func embedderPoliciesRunAfterTheRules() async throws {
        let policy = DenyEmail(denied: "pat@example.com")
        let fixture = try await Self.fixture(
            policies: [DenyEmail(denied: "nobody@example.com"), policy], email: "pat@example.com")
        try await fixture.warden.test { http in
            var browser = Browser(http)
            Self.expectDenied(try await fixture.signIn(&browser), "Policy says no")
            let seen = await policy.seen.events
            #expect(seen.count == 1)
            #expect(seen.first?.user.userID == fixture.userID)
            #expect(seen.first?.client.clientID == fixture.clientID)
            #expect(seen.first?.sessionTransferToken == nil)
            #expect(seen.first?.request.ip == nil, "no socket address in-process")
            let failure = try #require(try await fixture.events("f").first)
            #expect(failure.details["post_login_policy"] == "DenyEmail")

            try await Self.addRule(fixture.warden, "true", reason: "Rule says no")
            var again = Browser(http)
            Self.expectDenied(try await fixture.signIn(&again), "Rule says no")
            #expect(await policy.seen.events.count == 1, "a denying rule ends the check before the policies")
        }
    }

    @Test func policiesThatAllowLetTheLoginThrough() async throws {
        let policy = DenyEmail(denied: "nobody@example.com")
        let fixture = try await Self.fixture(policies: [policy], email: "kim@example.com")
        try await fixture.warden.test { http in
            var browser = Browser(http)
            let signedIn = try await fixture.signIn(&browser)
            #expect(signedIn.redirectParameters["code"] != nil)
            #expect(await policy.seen.events.count == 1)
        }
    }
}
