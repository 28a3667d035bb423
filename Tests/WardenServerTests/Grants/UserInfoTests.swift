import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing
import WardenCore
import WardenServer
import WardenTesting
import WardenWire

/// `GET|POST /userinfo` (OIDC Core §5.3, RFC 6750, SPEC §3).
@Suite("/userinfo")
struct UserInfoTests {
    static func accessToken(_ flow: CodeFlowFixture, scope: [String], http: some TestClientProtocol) async throws
        -> String
    {
        try #require(try await flow.tokens(scope: scope, http: http)["access_token"]?.stringValue)
    }

    static func get(_ token: String, http: some TestClientProtocol) async throws -> TestResponse {
        try await http.execute(uri: "/userinfo", method: .get, headers: [.authorization: "Bearer \(token)"])
    }

    static func expectInvalidToken(_ response: TestResponse, sourceLocation: SourceLocation = #_sourceLocation) {
        expectError(
            response, status: .unauthorized, code: "invalid_token", sourceLocation: sourceLocation)
        #expect(response.headers[.wwwAuthenticate] == #"Bearer error="invalid_token""#, sourceLocation: sourceLocation)
    }

    @Test(arguments: [
        (["openid"], ["sub"]),
        (["openid", "profile"], ["sub", "name", "given_name", "family_name", "nickname", "picture", "updated_at"]),
        (["openid", "email"], ["sub", "email", "email_verified"]),
        (
            ["openid", "profile", "email"],
            [
                "sub", "name", "given_name", "family_name", "nickname", "picture", "updated_at", "email",
                "email_verified",
            ]
        ),
    ])
    func claimsFollowTheTokensScope(scope: [String], claims: [String]) async throws {
        let flow = try await CodeFlowFixture.make()
        try await flow.warden.test { http in
            let response = try await Self.get(try await Self.accessToken(flow, scope: scope, http: http), http: http)
            #expect(response.status == .ok)
            #expect(response.headers[.cacheControl] == "no-store")
            let body = try #require(response.json.objectValue)
            #expect(Set(body.keys) == Set(claims))
            #expect(body["sub"] == .string(flow.user.userID))
            if scope.contains("email") { #expect(body["email"] == .string(flow.user.email!)) }
            if scope.contains("profile") { #expect(body["name"] == "Alice Example") }
        }
    }

    @Test func postTakesTheTokenFromTheHeaderOrTheFormButNotBoth() async throws {
        let flow = try await CodeFlowFixture.make()
        try await flow.warden.test { http in
            let token = try await Self.accessToken(flow, scope: ["openid", "email"], http: http)
            let byHeader = try await http.execute(
                uri: "/userinfo", method: .post, headers: [.authorization: "Bearer \(token)"])
            #expect(byHeader.json["email"] == .string(flow.user.email!))
            let byForm = try await http.postForm("/userinfo", [("access_token", token)])
            #expect(byForm.json["sub"] == .string(flow.user.userID))
            expectError(
                try await http.postForm(
                    "/userinfo", [("access_token", token)], headers: [.authorization: "Bearer \(token)"]),
                status: .badRequest, code: "invalid_request")
        }
    }

    @Test func withoutATokenTheAnswerIs401WithABareChallenge() async throws {
        let flow = try await CodeFlowFixture.make()
        try await flow.warden.test { http in
            for response in [
                try await http.execute(uri: "/userinfo", method: .get),
                try await http.execute(uri: "/userinfo", method: .post),
                try await http.execute(uri: "/userinfo", method: .get, headers: [.authorization: "Basic YTpi"]),
            ] {
                #expect(response.status == .unauthorized)
                #expect(response.headers[.wwwAuthenticate] == #"Bearer realm="warden""#)
            }
        }
    }

    @Test func invalidTokensAre401InvalidToken() async throws {
        let flow = try await CodeFlowFixture.make()
        let api = try await flow.warden.makeAPI()
        try await flow.warden.grant(clientID: flow.client.id, audience: api.identifier, scope: ["read:things"])
        let other = try await TestWarden.make()
        try await flow.warden.test { http in
            let token = try await Self.accessToken(flow, scope: ["openid"], http: http)
            let parts = token.split(separator: ".").map(String.init)
            let idToken = try #require(try await flow.tokens(scope: ["openid"], http: http)["id_token"]?.stringValue)
            let apiOnly = try #require(
                try await flow.tokens(scope: ["read:things"], audience: api.identifier, http: http)["access_token"]?
                    .stringValue)
            let foreign = try await other.test { otherHTTP in
                try await CodeFlowFixture.make(warden: other).tokens(scope: ["openid"], http: otherHTTP)
            }
            let bad = [
                "garbage",
                parts[0] + "." + parts[1] + "." + String(parts[2].reversed()),
                parts[0] + "." + Base64URL.encode(Data(#"{"sub":"x","aud":"http://127.0.0.1:8080/userinfo"}"#.utf8))
                    + "." + parts[2],
                idToken,
                apiOnly,
                try #require(foreign["access_token"]?.stringValue),
            ]
            for candidate in bad {
                Self.expectInvalidToken(try await Self.get(candidate, http: http))
            }
        }
    }

    @Test func anExpiredTokenIsInvalid() async throws {
        let flow = try await CodeFlowFixture.make()
        try await flow.warden.test { http in
            let token = try await Self.accessToken(flow, scope: ["openid"], http: http)
            flow.warden.clock.advance(by: 86401)
            Self.expectInvalidToken(try await Self.get(token, http: http))
        }
    }

    @Test func aDeletedUsersTokenIsInvalid() async throws {
        let flow = try await CodeFlowFixture.make()
        try await flow.warden.test { http in
            let token = try await Self.accessToken(flow, scope: ["openid"], http: http)
            _ = try await flow.warden.runtime.store.deleteUser(id: flow.user.userID)
            Self.expectInvalidToken(try await Self.get(token, http: http))
        }
    }
}
