import Foundation
import HTTPTypes
import HummingbirdTesting
import JWTKit
import Testing
import WardenCore
import WardenServer
import WardenTesting
import WardenWire

/// `grant_type=authorization_code` at `/oauth/token` (RFC 6749 §4.1.3, RFC 7636 §4.5, SPEC §3 and §5).
@Suite("authorization_code")
struct AuthorizationCodeGrantTests {
    @Test func exchangesACodeForAccessIDAndRefreshTokens() async throws {
        let flow = try await CodeFlowFixture.make()
        let api = try await flow.warden.makeAPI(configure: {
            $0.allowOfflineAccess = true; $0.tokenLifetime = 900; $0.signingAlg = .es256
        })
        try await flow.warden.test { http in
            let scope = ["openid", "profile", "offline_access", "read:things"]
            let response = try await flow.exchange(
                try await flow.code(scope: scope, audience: api.identifier), http: http)
            #expect(response.status == .ok)
            #expect(response.headers[.cacheControl] == "no-store")
            let body = response.json
            #expect(body["token_type"] == "Bearer")
            #expect(body["expires_in"] == 900)
            #expect(body["scope"] == "openid profile offline_access read:things")
            #expect(body["id_token"]?.stringValue != nil)
            #expect((body["refresh_token"]?.stringValue?.count ?? 0) >= 43)
            let accessToken = try #require(body["access_token"]?.stringValue)
            let claims = try await CodeFlowFixture.publishedKeys(http: http).verify(
                accessToken, as: UserAccessClaims.self)
            #expect(claims.sub.value == flow.user.userID)
            #expect(claims.aud.value == [api.identifier, "http://127.0.0.1:8080/userinfo"])
            #expect(claims.clientID == flow.client.id)
            #expect(claims.scope == "openid profile offline_access read:things")
            #expect(Int(claims.exp.value.timeIntervalSince1970 - claims.iat.value.timeIntervalSince1970) == 900)
            #expect(try CompactJWS(parsing: accessToken).alg == "ES256")
            #expect(try CompactJWS(parsing: accessToken).header["typ"] == "at+jwt")
        }
        let succeeded = try await flow.logs("seacft")
        #expect(succeeded.count == 1)
        #expect(succeeded.first?.userID == flow.user.userID)
        #expect(succeeded.first?.audience == api.identifier)
    }

    @Test func discoveryAdvertisesTheCodeFlowEndpoints() async throws {
        let warden = try await TestWarden.make()
        let document = try await warden.test { http in
            try await http.execute(uri: "/.well-known/openid-configuration", method: .get).json
        }
        let issuer = "http://127.0.0.1:8080/"
        #expect(document["authorization_endpoint"] == .string(issuer + "authorize"))
        #expect(document["userinfo_endpoint"] == .string(issuer + "userinfo"))
        #expect(document["revocation_endpoint"] == .string(issuer + "oauth/revoke"))
        #expect(document["end_session_endpoint"] == .string(issuer + "oidc/logout"))
        #expect(document["code_challenge_methods_supported"] == ["S256"])
        #expect(document["response_modes_supported"] == ["query", "form_post"])
        let grants = document["grant_types_supported"]?.arrayValue?.compactMap(\.stringValue) ?? []
        #expect(Set(grants).isSuperset(of: ["authorization_code", "refresh_token", "client_credentials"]))
    }

    @Test func withoutAnAudienceTheAccessTokenIsForUserinfoOnly() async throws {
        let flow = try await CodeFlowFixture.make(public: true)
        try await flow.warden.test { http in
            let code = try await flow.code(scope: ["openid"])
            let json = """
                {"grant_type":"authorization_code","client_id":"\(flow.client.id)","code":"\(code)",
                 "redirect_uri":"\(CodeFlowFixture.redirectURI)","code_verifier":"\(CodeFlowFixture.verifier)",
                 "client_secret":null}
                """
            let response = try await http.postJSON("/oauth/token", json)
            #expect(response.status == .ok)
            #expect(response.json["expires_in"] == 86400)
            #expect(response.json["refresh_token"] == nil)
            let token = try #require(response.json["access_token"]?.stringValue)
            let claims = try await CodeFlowFixture.publishedKeys(http: http).verify(token, as: UserAccessClaims.self)
            #expect(claims.aud.value == ["http://127.0.0.1:8080/userinfo"])
            #expect(try CompactJWS(parsing: token).alg == "RS256")
        }
    }

    @Test func withoutOpenIDThereIsNoIDTokenAndNoUserinfoAudience() async throws {
        let flow = try await CodeFlowFixture.make()
        let api = try await flow.warden.makeAPI()
        try await flow.warden.test { http in
            let body = try await flow.tokens(scope: ["read:things"], audience: api.identifier, http: http)
            #expect(body["id_token"] == nil)
            let token = try #require(body["access_token"]?.stringValue)
            #expect(try CompactJWS(parsing: token).audiences == [api.identifier])
        }
    }

    /// One way to get a code exchange wrong, and the error SPEC §5 gives for it.
    struct Mistake: Sendable, CustomTestStringConvertible {
        let name: String
        let code: String
        let status: HTTPResponse.Status
        let send: @Sendable (CodeFlowFixture, String, any TestClientProtocol) async throws -> TestResponse
        var testDescription: String { name }
    }

    static let mistakes: [Mistake] = [
        Mistake(name: "wrong verifier", code: "invalid_grant", status: .badRequest) { flow, code, http in
            try await flow.exchange(code, http: http, verifier: String(repeating: "a", count: 43))
        },
        Mistake(name: "malformed verifier", code: "invalid_request", status: .badRequest) { flow, code, http in
            try await flow.exchange(code, http: http, verifier: "too-short")
        },
        Mistake(name: "verifier with a forbidden character", code: "invalid_request", status: .badRequest) {
            flow, code, http in
            try await flow.exchange(code, http: http, verifier: String(repeating: "a", count: 42) + "+")
        },
        Mistake(name: "missing verifier", code: "invalid_request", status: .badRequest) { flow, code, http in
            try await flow.exchange(code, http: http, verifier: nil)
        },
        Mistake(name: "wrong redirect_uri", code: "invalid_grant", status: .badRequest) { flow, code, http in
            try await flow.exchange(code, http: http, redirectURI: "https://app.example.com/other")
        },
        Mistake(name: "missing redirect_uri", code: "invalid_request", status: .badRequest) { flow, code, http in
            try await flow.exchange(code, http: http, redirectURI: nil)
        },
        Mistake(name: "missing code", code: "invalid_request", status: .badRequest) { flow, _, http in
            try await flow.exchange(nil, http: http)
        },
        Mistake(name: "unknown code", code: "invalid_grant", status: .badRequest) { flow, _, http in
            try await flow.exchange(RandomToken.make(), http: http)
        },
        Mistake(name: "wrong client", code: "invalid_grant", status: .badRequest) { flow, code, http in
            let other = try await flow.warden.makeClient(grantTypes: [.authorizationCode])
            return try await flow.exchange(
                code, http: http, credentials: [("client_id", other.id), ("client_secret", other.secret)])
        },
        Mistake(name: "no client authentication", code: "invalid_client", status: .unauthorized) {
            flow, code, http in
            try await flow.exchange(code, http: http, credentials: [("client_id", flow.client.id)])
        },
        Mistake(name: "wrong client secret", code: "invalid_client", status: .unauthorized) { flow, code, http in
            try await flow.exchange(
                code, http: http, credentials: [("client_id", flow.client.id), ("client_secret", "wrong")])
        },
    ]

    @Test(arguments: mistakes)
    func aBadExchangeIsRefused(_ mistake: Mistake) async throws {
        let flow = try await CodeFlowFixture.make()
        try await flow.warden.test { http in
            let response = try await mistake.send(flow, try await flow.code(), http)
            expectError(response, status: mistake.status, code: mistake.code)
        }
        #expect(try await flow.logs("feacft").count == 1)
        #expect(try await flow.logs("seacft").isEmpty)
    }

    @Test func aCodeExpiresAfter60Seconds() async throws {
        let flow = try await CodeFlowFixture.make()
        try await flow.warden.test { http in
            let code = try await flow.code()
            flow.warden.clock.advance(by: 61)
            expectError(
                try await flow.exchange(code, http: http), status: .badRequest, code: "invalid_grant")
        }
    }

    @Test func aCodeUsedTwiceIsRefusedAndRevokesWhatItsFirstUseIssued() async throws {
        let flow = try await CodeFlowFixture.make()
        try await flow.warden.test { http in
            let code = try await flow.code(scope: ["openid", "offline_access"])
            let first = try await flow.exchange(code, http: http)
            #expect(first.status == .ok)
            let refreshToken = try #require(first.json["refresh_token"]?.stringValue)
            #expect(try await flow.refresh(refreshToken, http: http).status == .ok)
            expectError(
                try await flow.exchange(code, http: http), status: .badRequest, code: "invalid_grant")
            expectError(
                try await flow.refresh(refreshToken, http: http), status: .badRequest, code: "invalid_grant")
        }
    }

    @Test func aCodeCannotBeRedeemedTwiceConcurrently() async throws {
        let flow = try await CodeFlowFixture.make()
        let code = try await flow.code()
        let statuses = try await flow.warden.test { http in
            try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for _ in 0..<10 { group.addTask { try await flow.exchange(code, http: http).status } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
        }
        #expect(statuses.filter { $0 == .ok }.count == 1)
        #expect(statuses.filter { $0 == .badRequest }.count == 9)
    }

    @Test func publicClientsMustUsePKCE() async throws {
        let flow = try await CodeFlowFixture.make(public: true)
        try await flow.warden.test { http in
            expectError(
                try await flow.exchange(try await flow.code(), http: http, verifier: nil), status: .badRequest,
                code: "invalid_request")
            expectError(
                try await flow.exchange(try await flow.code(challenge: nil), http: http), status: .badRequest,
                code: "invalid_grant")
            #expect(try await flow.exchange(try await flow.code(), http: http).status == .ok)
        }
    }

    @Test func aConfidentialClientMayRedeemACodeWithoutPKCEButNotSendAVerifierForIt() async throws {
        let flow = try await CodeFlowFixture.make()
        try await flow.warden.test { http in
            #expect(
                try await flow.exchange(try await flow.code(challenge: nil), http: http, verifier: nil).status == .ok)
            expectError(
                try await flow.exchange(try await flow.code(challenge: nil), http: http), status: .badRequest,
                code: "invalid_grant")
        }
    }

    @Test func aClientWithoutTheGrantIsUnauthorized() async throws {
        let flow = try await CodeFlowFixture.make(grantTypes: [.clientCredentials])
        try await flow.warden.test { http in
            expectError(
                try await flow.exchange(try await flow.code(), http: http), status: .badRequest,
                code: "unauthorized_client")
        }
    }

    @Test func aDeletedUserGetsNoTokens() async throws {
        let flow = try await CodeFlowFixture.make()
        let code = try await flow.code()
        _ = try await flow.warden.runtime.store.deleteUser(id: flow.user.userID)
        try await flow.warden.test { http in
            expectError(
                try await flow.exchange(code, http: http), status: .badRequest, code: "invalid_grant")
        }
    }

    /// SPEC §3: a refresh token only with `offline_access`, the client's `refresh_token` grant and an API
    /// that allows offline access.
    @Test func refreshTokensFollowTheOfflineAccessRules() async throws {
        let flow = try await CodeFlowFixture.make()
        let closed = try await flow.warden.makeAPI()
        let open = try await flow.warden.makeAPI(configure: { $0.allowOfflineAccess = true })
        let noRefreshGrant = try await CodeFlowFixture.make(grantTypes: [.authorizationCode], warden: flow.warden)
        try await flow.warden.test { http in
            let offline = ["openid", "offline_access"]
            let cases: [(CodeFlowFixture, [String], String?, Bool)] = [
                (flow, offline, nil, true),
                (flow, offline, open.identifier, true),
                (flow, offline, closed.identifier, false),
                (flow, ["openid"], open.identifier, false),
                (noRefreshGrant, offline, nil, false),
            ]
            for (fixture, scope, audience, offered) in cases {
                let body = try await fixture.tokens(scope: scope, audience: audience, http: http)
                #expect((body["refresh_token"] != nil) == offered, "\(scope) \(audience ?? "-")")
            }
        }
    }
}
