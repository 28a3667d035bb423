import Foundation
import HTTPTypes
import HummingbirdTesting
import JWTKit
import Testing
import WardenCore
import WardenServer
import WardenTesting
import WardenWire

/// `POST /oauth/introspect` (RFC 7662, SPEC §5.1), and the revocation of a replayed code's access tokens
/// (SPEC §5).
@Suite("/oauth/introspect")
struct IntrospectionTests {
    static func introspect(
        _ token: String, as credentials: [(String, String)], http: some TestClientProtocol,
        hint: String? = nil
    ) async throws -> TestResponse {
        var form = [("token", token)] + credentials
        if let hint { form.append(("token_type_hint", hint)) }
        return try await http.postForm("/oauth/introspect", form)
    }

    static func expectInactive(_ response: TestResponse, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(response.status == .ok, sourceLocation: sourceLocation)
        #expect(response.json == ["active": false], sourceLocation: sourceLocation)
        #expect(response.headers[.cacheControl] == "no-store", sourceLocation: sourceLocation)
    }

    @Test func anAccessTokenIsActiveForTheClientItWasIssuedTo() async throws {
        let flow = try await CodeFlowFixture.make()
        let api = try await flow.warden.makeAPI { $0.allowOfflineAccess = true }
        try await flow.warden.test { http in
            let body = try await flow.tokens(scope: ["openid", "read:things"], audience: api.identifier, http: http)
            let access = try #require(body["access_token"]?.stringValue)
            let response = try await Self.introspect(access, as: flow.credentials, http: http)
            #expect(response.status == .ok)
            #expect(response.headers[.cacheControl] == "no-store")
            let json = response.json
            #expect(json["active"] == true)
            #expect(json["token_type"] == "Bearer")
            #expect(json["client_id"]?.stringValue == flow.client.id)
            #expect(json["sub"]?.stringValue == flow.user.userID)
            #expect(json["scope"] == "openid read:things")
            #expect(json["iss"] == "http://127.0.0.1:8080/")
            #expect(json["aud"] == [.string(api.identifier), "http://127.0.0.1:8080/userinfo"])
            #expect(json["exp"]?.doubleValue != nil)
            #expect(json["iat"]?.doubleValue != nil)
        }
    }

    @Test func aRefreshTokenIsActiveUntilRevoked() async throws {
        let flow = try await CodeFlowFixture.make()
        try await flow.warden.test { http in
            let body = try await flow.tokens(scope: ["openid", "offline_access"], http: http)
            let refresh = try #require(body["refresh_token"]?.stringValue)
            let json = try await Self.introspect(refresh, as: flow.credentials, http: http, hint: "refresh_token").json
            #expect(json["active"] == true)
            #expect(json["token_type"] == "refresh_token")
            #expect(json["client_id"]?.stringValue == flow.client.id)
            #expect(json["sub"]?.stringValue == flow.user.userID)
            #expect(json["scope"] == "openid offline_access")
            // RFC 7662 §2.1: the hint is optional, and a wrong one does not hide the token.
            #expect(try await Self.introspect(refresh, as: flow.credentials, http: http).json["active"] == true)
            let wrongHint = try await Self.introspect(refresh, as: flow.credentials, http: http, hint: "access_token")
            #expect(wrongHint.json["active"] == true)
            #expect(try await http.postForm("/oauth/revoke", [("token", refresh)] + flow.credentials).status == .ok)
            Self.expectInactive(try await Self.introspect(refresh, as: flow.credentials, http: http))
            // RFC 7009 §2.1: the access tokens of that grant go with it.
            let access = try #require(body["access_token"]?.stringValue)
            Self.expectInactive(try await Self.introspect(access, as: flow.credentials, http: http))
        }
    }

    @Test func garbageAndExpiredTokensAreInactive() async throws {
        let flow = try await CodeFlowFixture.make()
        try await flow.warden.test { http in
            let access = try #require(try await flow.tokens(http: http)["access_token"]?.stringValue)
            for token in ["garbage", RandomToken.make(), String(access.dropLast(4)) + "AAAA"] {
                Self.expectInactive(try await Self.introspect(token, as: flow.credentials, http: http))
            }
            flow.warden.clock.advance(by: 86400 + 1)
            Self.expectInactive(try await Self.introspect(access, as: flow.credentials, http: http))
        }
    }

    @Test func aBlockedUsersTokensAreInactive() async throws {
        let flow = try await CodeFlowFixture.make()
        try await flow.warden.test { http in
            let body = try await flow.tokens(scope: ["openid", "offline_access"], http: http)
            var record = try #require(try await flow.warden.runtime.store.user(id: flow.user.userID))
            record.user.blocked = true
            try await flow.warden.runtime.store.updateUser(record)
            for key in ["access_token", "refresh_token"] {
                let token = try #require(body[key]?.stringValue)
                Self.expectInactive(try await Self.introspect(token, as: flow.credentials, http: http))
            }
        }
    }

    /// RFC 7662 §2.2 / SPEC §5.1: another client learns nothing, unless it has a client grant for one of the
    /// token's audiences (it is the API the token is for).
    @Test func onlyTheIssuedToClientOrTheAudiencesResourceServerMayIntrospect() async throws {
        let flow = try await CodeFlowFixture.make()
        let api = try await flow.warden.makeAPI { $0.allowOfflineAccess = true }
        let stranger = try await flow.warden.makeClient()
        let resourceServer = try await flow.warden.makeClient()
        try await flow.warden.grant(clientID: resourceServer.id, audience: api.identifier, scope: ["read:things"])
        try await flow.warden.test { http in
            let body = try await flow.tokens(scope: ["openid", "offline_access"], audience: api.identifier, http: http)
            let access = try #require(body["access_token"]?.stringValue)
            let refresh = try #require(body["refresh_token"]?.stringValue)
            let strangerCredentials = [("client_id", stranger.id), ("client_secret", stranger.secret)]
            let serverCredentials = [("client_id", resourceServer.id), ("client_secret", resourceServer.secret)]
            Self.expectInactive(try await Self.introspect(access, as: strangerCredentials, http: http))
            Self.expectInactive(try await Self.introspect(refresh, as: strangerCredentials, http: http))
            #expect(try await Self.introspect(access, as: serverCredentials, http: http).json["active"] == true)
            Self.expectInactive(try await Self.introspect(refresh, as: serverCredentials, http: http))
        }
    }

    @Test func aClientCredentialsTokenIsIntrospected() async throws {
        let warden = try await TestWarden.make()
        let api = try await warden.makeAPI()
        let client = try await warden.makeClient()
        try await warden.grant(clientID: client.id, audience: api.identifier, scope: ["read:things"])
        let credentials = [("client_id", client.id), ("client_secret", client.secret)]
        try await warden.test { http in
            let issued = try await http.postForm(
                "/oauth/token", [("grant_type", "client_credentials"), ("audience", api.identifier)] + credentials)
            let access = try #require(issued.json["access_token"]?.stringValue)
            let json = try await Self.introspect(access, as: credentials, http: http).json
            #expect(json["active"] == true)
            #expect(json["sub"]?.stringValue == client.id + "@clients")
            #expect(json["aud"]?.stringValue == api.identifier)
            #expect(json["scope"] == "read:things")
        }
    }

    @Test func errors() async throws {
        let flow = try await CodeFlowFixture.make()
        let publicClient = try await flow.warden.makeClient(grantTypes: [.authorizationCode]) {
            $0.tokenEndpointAuthMethod = TokenEndpointAuthMethod.none
        }
        try await flow.warden.test { http in
            expectError(
                try await http.postForm("/oauth/introspect", flow.credentials), status: .badRequest,
                code: "invalid_request")
            expectError(
                try await Self.introspect(
                    "x", as: [("client_id", flow.client.id), ("client_secret", "wrong")], http: http),
                status: .unauthorized, code: "invalid_client")
            expectError(
                try await Self.introspect("x", as: [], http: http), status: .unauthorized, code: "invalid_client")
            expectError(
                try await Self.introspect("x", as: [("client_id", publicClient.id)], http: http),
                status: .unauthorized, code: "invalid_client")
        }
    }

    /// SPEC §4: an assertion for the introspection endpoint's own URL is accepted there.
    @Test func aPrivateKeyJWTClientIntrospectsWithAnAssertionForThisEndpoint() async throws {
        let warden = try await TestWarden.make()
        let api = try await warden.makeAPI()
        let key = ES256PrivateKey()
        let client = try await warden.makeKeyedClient(key: key)
        try await warden.grant(clientID: client.id, audience: api.identifier, scope: ["read:things"])
        let forToken = try await warden.assertionFields(
            key: key, clientID: client.id, audience: "http://127.0.0.1:8080/oauth/token")
        let forIntrospection = try await warden.assertionFields(
            key: key, clientID: client.id, audience: "http://127.0.0.1:8080/oauth/introspect")
        try await warden.test { http in
            let issued = try await http.postForm(
                "/oauth/token", [("grant_type", "client_credentials"), ("audience", api.identifier)] + forToken)
            let access = try #require(issued.json["access_token"]?.stringValue)
            let response = try await Self.introspect(access, as: forIntrospection, http: http)
            #expect(response.json["active"] == true)
        }
    }

    /// SPEC §5: a second use of a code is `invalid_grant` and revokes the access tokens of the first use.
    /// The revocation list's storage contract is checked on both engines by
    /// `ArtefactStoreTests.revocationListEntry`.
    @Test func aReplayedCodeRevokesTheAccessTokensOfItsFirstUse() async throws {
        let flow = try await CodeFlowFixture.make()
        try await flow.warden.test { http in
            let code = try await flow.code(scope: ["openid", "profile", "offline_access"])
            let first = try await flow.exchange(code, http: http)
            #expect(first.status == .ok)
            let access = try #require(first.json["access_token"]?.stringValue)
            let refresh = try #require(first.json["refresh_token"]?.stringValue)
            let before = try await http.execute(
                uri: "/userinfo", method: .get, headers: [.authorization: "Bearer \(access)"])
            #expect(before.status == .ok)
            // A token of the same client outside this grant is untouched.
            let other = try #require(try await flow.tokens(http: http)["access_token"]?.stringValue)

            expectError(
                try await flow.exchange(code, http: http), status: .badRequest, code: "invalid_grant")

            let after = try await http.execute(
                uri: "/userinfo", method: .get, headers: [.authorization: "Bearer \(access)"])
            expectError(after, status: .unauthorized, code: "invalid_token")
            Self.expectInactive(try await Self.introspect(access, as: flow.credentials, http: http))
            Self.expectInactive(try await Self.introspect(refresh, as: flow.credentials, http: http))
            expectError(
                try await flow.refresh(refresh, http: http), status: .badRequest, code: "invalid_grant")
            let untouched = try await http.execute(
                uri: "/userinfo", method: .get, headers: [.authorization: "Bearer \(other)"])
            #expect(untouched.status == .ok)
            #expect(try await Self.introspect(other, as: flow.credentials, http: http).json["active"] == true)
        }
    }
}
