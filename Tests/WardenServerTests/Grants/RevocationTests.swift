import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing
import WardenCore
import WardenServer
import WardenTesting
import WardenWire

/// `POST /oauth/revoke` (RFC 7009, SPEC §3).
@Suite("/oauth/revoke")
struct RevocationTests {
    /// A client with a refresh token and the access token issued with it.
    static func start(public isPublic: Bool = false) async throws -> (CodeFlowFixture, refresh: String, access: String)
    {
        let flow = try await CodeFlowFixture.make(public: isPublic)
        let body = try await flow.warden.test { http in
            try await flow.tokens(scope: ["openid", "offline_access"], http: http)
        }
        return (
            flow, try #require(body["refresh_token"]?.stringValue), try #require(body["access_token"]?.stringValue)
        )
    }

    @Test func aRevokedRefreshTokenNoLongerWorks() async throws {
        let (flow, refresh, _) = try await Self.start()
        try await flow.warden.test { http in
            let response = try await http.postForm(
                "/oauth/revoke", [("token", refresh), ("token_type_hint", "refresh_token")] + flow.credentials)
            #expect(response.status == .ok)
            #expect(response.headers[.cacheControl] == "no-store")
            expectError(
                try await flow.refresh(refresh, http: http), status: .badRequest, code: "invalid_grant")
        }
        let revoked = try await flow.logs("srrt")
        #expect(revoked.count == 1)
        #expect(revoked.first?.userID == flow.user.userID)
        #expect(revoked.first?.clientID == flow.client.id)
    }

    @Test func aPublicClientRevokesWithAJSONBody() async throws {
        let (flow, refresh, _) = try await Self.start(public: true)
        try await flow.warden.test { http in
            let response = try await http.postJSON(
                "/oauth/revoke", #"{"client_id":"\#(flow.client.id)","token":"\#(refresh)","token_type_hint":null}"#)
            #expect(response.status == .ok)
            expectError(
                try await flow.refresh(refresh, http: http), status: .badRequest, code: "invalid_grant")
        }
    }

    @Test func unknownTokensAndAccessTokensAreAnswered200() async throws {
        let (flow, refresh, access) = try await Self.start()
        try await flow.warden.test { http in
            for token in [RandomToken.make(), access] {
                let response = try await http.postForm(
                    "/oauth/revoke", [("token", token), ("token_type_hint", "access_token")] + flow.credentials)
                #expect(response.status == .ok)
            }
            #expect(try await flow.refresh(refresh, http: http).status == .ok)
        }
        #expect(try await flow.logs("srrt").isEmpty)
    }

    @Test func anotherClientsTokenIsAnswered200ButNotRevoked() async throws {
        let (flow, refresh, _) = try await Self.start()
        let other = try await flow.warden.makeClient(grantTypes: [.authorizationCode])
        try await flow.warden.test { http in
            let response = try await http.postForm(
                "/oauth/revoke", [("token", refresh), ("client_id", other.id), ("client_secret", other.secret)])
            #expect(response.status == .ok)
            #expect(try await flow.refresh(refresh, http: http).status == .ok)
        }
    }

    @Test func badRevocationRequests() async throws {
        let (flow, refresh, _) = try await Self.start()
        try await flow.warden.test { http in
            expectError(
                try await http.postForm("/oauth/revoke", flow.credentials), status: .badRequest,
                code: "invalid_request")
            expectError(
                try await http.postForm("/oauth/revoke", [("token", refresh), ("client_id", flow.client.id)]),
                status: .unauthorized, code: "invalid_client")
            expectError(
                try await http.postForm(
                    "/oauth/revoke", [("token", refresh), ("client_id", flow.client.id), ("client_secret", "wrong")]),
                status: .unauthorized, code: "invalid_client")
            expectError(
                try await http.postForm("/oauth/revoke", [("token", refresh)]), status: .unauthorized,
                code: "invalid_client")
            expectError(
                try await http.execute(
                    uri: "/oauth/revoke", method: .post, headers: [.contentType: "text/plain"],
                    body: .init(string: "token=\(refresh)")),
                status: .badRequest, code: "invalid_request")
            #expect(try await flow.refresh(refresh, http: http).status == .ok)
        }
    }
}
