import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
import WardenCore
import WardenTesting
import WardenWire

@testable import WardenServer

/// A web client's `GET /authorize` with a session transfer token (SPEC §8).
@Suite("SessionTransfer: consumption at /authorize")
struct SessionTransferConsumptionTests {
    typealias Fixture = SessionTransferFixture

    enum Method: String, CaseIterable, Sendable { case query, cookie }

    @Test(arguments: Method.allCases)
    func aTokenLogsTheUserInOnceWithoutTheLoginForm(method: Method) async throws {
        let fixture = try await Fixture.make()
        try await fixture.warden.test { http in
            let refreshToken = try await fixture.refreshToken(http: http)
            let token = try #require(
                try await fixture.exchange(refreshToken, http: http).json["access_token"]?.stringValue)
            let present = { () async throws -> TestResponse in
                method == .query
                    ? try await fixture.authorize(http: http, query: token)
                    : try await fixture.authorize(http: http, cookie: token)
            }
            let accepted = try await present()
            #expect(accepted.isCodeRedirect, "\(accepted.headers)")
            #expect(accepted.redirectParameters["state"] == "xyzABC123")
            let session = try #require(try await fixture.session(setBy: accepted))
            #expect(session.userID == fixture.native.user.userID)
            #expect(session.method == "session_transfer")
            #expect(session.sourceFamilyID == (try await fixture.family(of: refreshToken)))

            let tokens = try await fixture.redeemWebCode(try #require(accepted.redirectParameters["code"]), http: http)
            #expect(tokens.status == .ok, "\(tokens.json)")
            let idToken = try CompactJWS(parsing: try #require(tokens.json["id_token"]?.stringValue))
            #expect(idToken.payload["sub"] == .string(fixture.native.user.userID))
            #expect(idToken.payload["sid"] == .string(session.id))

            #expect(try await present().isLoginRedirect)  // used up
        }
        let logins = try await fixture.web.events("s")
        #expect(logins.count == 1)
        #expect(logins.first?.clientID == fixture.web.clientID && logins.first?.userID == fixture.native.user.userID)
    }

    @Test func withBothTheCookieAloneIsEvaluatedAndTheQueryTokenLeftUntouched() async throws {
        let fixture = try await Fixture.make()
        try await fixture.warden.test { http in
            let cookie = try await fixture.sessionTransferToken(http: http)
            let query = try await fixture.sessionTransferToken(http: http)
            #expect(try await fixture.authorize(http: http, query: query, cookie: cookie).isCodeRedirect)
            #expect(try await fixture.authorize(http: http, cookie: cookie).isLoginRedirect)

            // An invalid cookie is ignored, and the query token still is not looked at.
            #expect(try await fixture.authorize(http: http, query: query, cookie: "forged").isLoginRedirect)
            #expect(try await fixture.authorize(http: http, query: query).isCodeRedirect)
        }
    }

    @Test func aMethodTheWebClientDoesNotAllowIsIgnoredAndDoesNotUseTheTokenUp() async throws {
        let fixture = try await Fixture.make { _ in
        } web: {
            $0.sessionTransfer?.allowedAuthenticationMethods = ["query"]
        }
        let closed = try await Fixture.make(warden: fixture.warden) { _ in
        } web: {
            $0.sessionTransfer = nil
        }
        try await fixture.warden.test { http in
            let token = try await fixture.sessionTransferToken(http: http)
            #expect(try await fixture.authorize(http: http, cookie: token).isLoginRedirect)
            #expect(try await closed.authorize(http: http, query: token).isLoginRedirect)
            // Neither presentation used it up.
            #expect(try await fixture.authorize(http: http, query: token).isCodeRedirect)
        }
    }

    @Test func aTokenLivesSixtySeconds() async throws {
        let fixture = try await Fixture.make()
        try await fixture.warden.test { http in
            let fresh = try await fixture.sessionTransferToken(http: http)
            let stale = try await fixture.sessionTransferToken(http: http)
            fixture.warden.clock.advance(by: 59)
            #expect(try await fixture.authorize(http: http, query: fresh).isCodeRedirect)
            fixture.warden.clock.advance(by: 2)
            #expect(try await fixture.authorize(http: http, query: stale).isLoginRedirect)
        }
    }

    @Test func ofTwentyParallelPresentationsExactlyOneMakesASession() async throws {
        let fixture = try await Fixture.make()
        let responses = try await fixture.warden.test { http in
            let token = try await fixture.sessionTransferToken(http: http)
            return try await withThrowingTaskGroup(of: TestResponse.self) { group in
                for _ in 0..<20 { group.addTask { try await fixture.authorize(http: http, query: token) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
        }
        #expect(responses.filter(\.isCodeRedirect).count == 1)
        #expect(responses.filter(\.isLoginRedirect).count == 19)
        var sessions: [Session] = []
        for response in responses {
            if let session = try await fixture.session(setBy: response) { sessions.append(session) }
        }
        #expect(sessions.count == 1)
    }

    @Test func aBlockedUserOrARevokedFamilyMakesNoSession() async throws {
        let fixture = try await Fixture.make()
        try await fixture.warden.test { http in
            let refreshToken = try await fixture.refreshToken(http: http)
            let token = try #require(
                try await fixture.exchange(refreshToken, http: http).json["access_token"]?.stringValue)
            #expect(
                try await http.postForm(
                    "/oauth/revoke", [("client_id", fixture.native.client.id), ("token", refreshToken)]
                ).status == .ok)
            #expect(try await fixture.authorize(http: http, query: token).isLoginRedirect)

            let other = try await fixture.sessionTransferToken(http: http)
            var record = try #require(try await fixture.warden.runtime.store.user(id: fixture.native.user.userID))
            record.user.blocked = true
            try await fixture.warden.runtime.store.updateUser(record)
            #expect(try await fixture.authorize(http: http, query: other).isLoginRedirect)
        }
    }

    @Test func withPromptNoneAnIgnoredTokenIsLoginRequired() async throws {
        let fixture = try await Fixture.make()
        try await fixture.warden.test { http in
            let response = try await fixture.authorize(http: http, query: "unknown", changes: ["prompt": "none"])
            #expect(response.redirectParameters["error"] == "login_required")
            let token = try await fixture.sessionTransferToken(http: http)
            #expect(try await fixture.authorize(http: http, query: token, changes: ["prompt": "none"]).isCodeRedirect)
        }
    }

    /// SPEC §8 `allow_refresh_token`: the web session made by transfer gets refresh tokens only when allowed.
    @Test(arguments: [false, true])
    func refreshTokensOfTheWebSessionFollowAllowRefreshToken(allowed: Bool) async throws {
        let fixture = try await Fixture.make { _ in
        } web: {
            $0.sessionTransfer?.allowRefreshToken = allowed
        }
        try await fixture.warden.test { http in
            let token = try await fixture.sessionTransferToken(http: http)
            let accepted = try await fixture.authorize(
                http: http, query: token, changes: ["scope": "openid offline_access"])
            let tokens = try await fixture.redeemWebCode(
                try #require(accepted.redirectParameters["code"]), http: http)
            #expect(tokens.status == .ok, "\(tokens.json)")
            #expect((tokens.json["refresh_token"] != nil) == allowed)
            #expect(tokens.json["scope"] == (allowed ? "openid offline_access" : "openid"))
        }
    }
}

/// SPEC §8: post-login rules run before a session transfer makes a session; a denial is an `access_denied` error
/// redirect, and the token is used up all the same.
@Suite("SessionTransfer: post-login rules")
struct SessionTransferPostLoginTests {
    @Test func aDenyingRuleEndsTheFlowWithAccessDenied() async throws {
        let fixture = try await SessionTransferFixture.make()
        try await fixture.warden.management { admin in
            try await admin.expect(
                .created, .post, "post-login-rules",
                json: [
                    "name": "No transfers from this app", "enabled": true, "order": 1,
                    "condition": .string(
                        #"event.session_transfer_token.client_id == "\#(fixture.native.client.id)" && "#
                            + #"event.client.client_id == "\#(fixture.web.clientID)""#),
                    "deny_reason": "Transfers from this app are not allowed",
                ])
        }
        try await fixture.warden.test { http in
            let token = try await fixture.sessionTransferToken(http: http)
            let denied = try await fixture.authorize(http: http, query: token)
            #expect(
                denied.status == .found && denied.headers[.location]?.hasPrefix(FrontChannelFixture.callback) == true)
            #expect(denied.redirectParameters["error"] == "access_denied")
            #expect(denied.redirectParameters["error_description"] == "Transfers from this app are not allowed")
            #expect(try await fixture.session(setBy: denied) == nil)
            #expect(try await fixture.authorize(http: http, query: token).isLoginRedirect)
        }
    }
}
