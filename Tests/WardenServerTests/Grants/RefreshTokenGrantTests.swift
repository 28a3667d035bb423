import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
import WardenCore
import WardenServer
import WardenTesting
import WardenWire

/// `grant_type=refresh_token` (RFC 6749 §6, SPEC §3 and §5): rotation, reuse detection, scope narrowing.
@Suite("refresh_token")
struct RefreshTokenGrantTests {
    static let offline = ["openid", "profile", "offline_access"]

    /// A fixture whose client rotates (or not) and a refresh token from a code exchange.
    static func start(
        rotating: Bool, configure: @escaping (inout Client) -> Void = { _ in }
    ) async throws -> (CodeFlowFixture, String) {
        let flow = try await CodeFlowFixture.make {
            $0.refreshToken.rotationType = rotating ? .rotating : .nonRotating
            configure(&$0)
        }
        let token = try await flow.warden.test { http in
            try #require(try await flow.tokens(scope: offline, http: http)["refresh_token"]?.stringValue)
        }
        return (flow, token)
    }

    @Test func aNonRotatingTokenCanBeUsedAgainAndAgain() async throws {
        let (flow, token) = try await Self.start(rotating: false)
        try await flow.warden.test { http in
            for _ in 0..<3 {
                let response = try await flow.refresh(token, http: http)
                #expect(response.status == .ok)
                #expect(response.json["refresh_token"] == nil)
                #expect(response.json["token_type"] == "Bearer")
                #expect(response.json["scope"] == "openid profile offline_access")
                let idToken = try CompactJWS(parsing: try #require(response.json["id_token"]?.stringValue))
                #expect(
                    idToken.payload["auth_time"] == .number(flow.session.authTime.timeIntervalSince1970.rounded(.down)))
                #expect(idToken.payload["sid"] == .string(flow.session.id))
                #expect(idToken.payload["nonce"] == nil)
                #expect(idToken.payload["name"] == "Alice Example")
            }
        }
        let succeeded = try await flow.logs("sertft")
        #expect(succeeded.count == 3)
        #expect(succeeded.first?.userID == flow.user.userID)
    }

    @Test func withoutTheSessionAuthTimeIsWhenTheTokenWasMade() async throws {
        let (flow, token) = try await Self.start(rotating: false)
        let issued = flow.warden.clock.now()
        _ = try await flow.warden.runtime.store.deleteSession(id: flow.session.id)
        flow.warden.clock.advance(by: 500)
        try await flow.warden.test { http in
            let response = try await flow.refresh(token, http: http)
            let idToken = try CompactJWS(parsing: try #require(response.json["id_token"]?.stringValue))
            #expect(idToken.payload["auth_time"] == .number(issued.timeIntervalSince1970.rounded(.down)))
        }
    }

    @Test func aRotatingTokenIsReplacedAndReusingTheOldOneRevokesTheFamily() async throws {
        let (flow, first) = try await Self.start(rotating: true)
        try await flow.warden.test { http in
            let response = try await flow.refresh(first, http: http)
            #expect(response.status == .ok)
            let second = try #require(response.json["refresh_token"]?.stringValue)
            #expect(second != first)
            let third = try #require(try await flow.refresh(second, http: http).json["refresh_token"]?.stringValue)
            expectError(
                try await flow.refresh(first, http: http), status: .badRequest, code: "invalid_grant")
            expectError(
                try await flow.refresh(third, http: http), status: .badRequest, code: "invalid_grant")
        }
        let reused = try await flow.logs("ferrt")
        #expect(reused.count == 1)
        #expect(reused.first?.userID == flow.user.userID)
        #expect(try await flow.logs("fertft").count == 2)
    }

    /// RFC 9700 §4.14.2, SPEC §3: 50 concurrent redemptions of one rotating token, ten rounds. One use wins the
    /// token; the others are reuses that revoke the family, so the winner's new refresh token is dead however the
    /// requests interleave: either it was issued and then revoked, or the winner, finding its family revoked,
    /// gets `invalid_grant` too.
    @Test func concurrentRedemptionsOfARotatingTokenEndWithTheWholeFamilyRevoked() async throws {
        let (flow, _) = try await Self.start(rotating: true)
        try await flow.warden.test { http in
            for round in 0..<10 {
                let token = try #require(
                    try await flow.tokens(scope: Self.offline, http: http)["refresh_token"]?.stringValue)
                let responses = try await withThrowingTaskGroup(of: (HTTPResponse.Status, String?).self) { group in
                    for _ in 0..<50 {
                        group.addTask {
                            let response = try await flow.refresh(token, http: http)
                            return (response.status, response.json["refresh_token"]?.stringValue)
                        }
                    }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                let issued = responses.filter { $0.0 == .ok }.compactMap(\.1)
                #expect(issued.count <= 1, "round \(round): at most one use wins")
                #expect(responses.filter { $0.0 == .badRequest }.count >= 49, "round \(round)")
                for successor in issued {
                    expectError(
                        try await flow.refresh(successor, http: http), status: .badRequest, code: "invalid_grant")
                }
            }
        }
    }

    @Test func scopeMayNarrowButNotWiden() async throws {
        let (flow, token) = try await Self.start(rotating: true)
        try await flow.warden.test { http in
            let narrowed = try await flow.refresh(token, http: http, scope: "openid")
            #expect(narrowed.status == .ok)
            #expect(narrowed.json["scope"] == "openid")
            let accessToken = try CompactJWS(parsing: try #require(narrowed.json["access_token"]?.stringValue))
            #expect(accessToken.payload["scope"] == "openid")
            let idToken = try CompactJWS(parsing: try #require(narrowed.json["id_token"]?.stringValue))
            #expect(idToken.payload["name"] == nil)
            // RFC 6749 §6: the successor keeps the scope of the token it replaces.
            let successor = try #require(narrowed.json["refresh_token"]?.stringValue)
            let full = try await flow.refresh(successor, http: http)
            #expect(full.json["scope"] == "openid profile offline_access")
            let next = try #require(full.json["refresh_token"]?.stringValue)
            expectError(
                try await flow.refresh(next, http: http, scope: "openid email"), status: .badRequest,
                code: "invalid_scope")
        }
    }

    @Test func anotherClientCannotUseOrBurnTheToken() async throws {
        let (flow, token) = try await Self.start(rotating: true)
        let other = try await flow.warden.makeClient(grantTypes: [.refreshToken])
        try await flow.warden.test { http in
            expectError(
                try await flow.refresh(
                    token, http: http, credentials: [("client_id", other.id), ("client_secret", other.secret)]),
                status: .badRequest, code: "invalid_grant")
            #expect(try await flow.refresh(token, http: http).status == .ok)
        }
    }

    @Test func badRefreshRequests() async throws {
        let (flow, token) = try await Self.start(rotating: false)
        try await flow.warden.test { http in
            expectError(
                try await flow.refresh(RandomToken.make(), http: http), status: .badRequest, code: "invalid_grant")
            expectError(
                try await http.postForm("/oauth/token", [("grant_type", "refresh_token")] + flow.credentials),
                status: .badRequest, code: "invalid_request")
            expectError(
                try await flow.refresh(token, http: http, credentials: [("client_id", flow.client.id)]),
                status: .unauthorized, code: "invalid_client")
        }
    }

    @Test func anExpiringTokenExpires() async throws {
        let (flow, token) = try await Self.start(rotating: false) {
            $0.refreshToken.expirationType = .expiring
            $0.refreshToken.tokenLifetime = 3600
        }
        try await flow.warden.test { http in
            #expect(try await flow.refresh(token, http: http).status == .ok)
            flow.warden.clock.advance(by: 3601)
            expectError(
                try await flow.refresh(token, http: http), status: .badRequest, code: "invalid_grant")
        }
    }

    @Test func aDeletedUserCannotRefresh() async throws {
        let (flow, token) = try await Self.start(rotating: false)
        _ = try await flow.warden.runtime.store.deleteUser(id: flow.user.userID)
        try await flow.warden.test { http in
            expectError(
                try await flow.refresh(token, http: http), status: .badRequest, code: "invalid_grant")
        }
    }

    @Test func aPublicClientRefreshesWithItsClientIDAlone() async throws {
        let flow = try await CodeFlowFixture.make(public: true) { $0.refreshToken.rotationType = .rotating }
        try await flow.warden.test { http in
            let token = try #require(
                try await flow.tokens(scope: Self.offline, http: http)["refresh_token"]?.stringValue)
            let response = try await flow.refresh(token, http: http)
            #expect(response.status == .ok)
            #expect(response.json["refresh_token"] != nil)
        }
    }
}
