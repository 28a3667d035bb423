import Foundation
import HTTPTypes
import HummingbirdTesting
import JWTKit
import Testing
import WardenCore
import WardenTesting
import WardenWire

@testable import WardenServer

/// Polling with `grant_type=urn:openid:params:grant-type:ciba` (CIBA Core §10.1, §11; SPEC §6.2): every row of
/// the state table, pacing, single redemption, and decisions taken elsewhere.
@Suite("CIBA polling")
struct BackchannelPollingTests {
    @Test func aPendingRequestAnswersAuthorizationPendingAndWritesNothing() async throws {
        let fixture = try await BackchannelFixture.make()
        try await fixture.warden.test { http in
            let id = try await fixture.started(http: http)
            for _ in 0..<3 {
                let response = try await fixture.poll(id, http: http)
                expectError(response, status: .badRequest, code: "authorization_pending")
                #expect(response.json["error_description"] == "The end-user authorization is pending")
                fixture.warden.clock.advance(by: 5)
            }
        }
        #expect(try await fixture.events("ciba_exchange_failed").isEmpty)
    }

    @Test func pollingTooSoonSlowsDownAndRaisesTheIntervalForGood() async throws {
        let fixture = try await BackchannelFixture.make()
        try await fixture.warden.test { http in
            let id = try await fixture.started(http: http)
            _ = try await fixture.poll(id, http: http)
            fixture.warden.clock.advance(by: 4)
            let first = try await fixture.poll(id, http: http)
            expectError(first, status: .badRequest, code: "slow_down")
            #expect(first.json["interval"] == 10)
            #expect(first.headers[HTTPField.Name("Retry-After")!] == "10")
            #expect(
                first.json["error_description"] == "You are polling faster than allowed. Try again in 10 seconds.")
            // The rejected poll counts: 9 s after it is still too soon for the raised interval.
            fixture.warden.clock.advance(by: 9)
            let second = try await fixture.poll(id, http: http)
            #expect(second.json["error"] == "slow_down")
            #expect(second.json["interval"] == 15)
            fixture.warden.clock.advance(by: 15)
            #expect(try await fixture.poll(id, http: http).json["error"] == "authorization_pending")
            fixture.warden.clock.advance(by: 10)
            #expect(try await fixture.poll(id, http: http).json["error"] == "slow_down")
        }
    }

    @Test func anApprovedRequestIsRedeemedOnceForTokensWithItsAuthorizationDetails() async throws {
        let fixture = try await BackchannelFixture.make()
        try await fixture.warden.test { http in
            let id = try await fixture.started(http: http)
            var browser = Browser(http)
            let path = try await fixture.approvalPath()
            fixture.warden.clock.advance(by: 30)
            let approved = try await fixture.decide(true, path: path, browser: &browser)
            #expect(approved.status == .ok)
            #expect(approved.text.contains("You approved the request of Payments Agent."))
            let response = try await fixture.poll(id, http: http)
            #expect(response.status == .ok, "\(response.json)")
            #expect(response.headers[.cacheControl] == "no-store")
            #expect(response.json["token_type"] == "Bearer")
            #expect(response.json["scope"] == "openid offline_access transfer:funds")
            #expect(response.json["refresh_token"]?.stringValue?.isEmpty == false)
            let requested = try JSONDecoder().decode(JSONValue.self, from: Data(BackchannelFixture.details.utf8))
            #expect(response.json["authorization_details"] == requested)

            let keys = try await CodeFlowFixture.publishedKeys(http: http)
            let access = try await keys.verify(
                try #require(response.json["access_token"]?.stringValue), as: CIBAAccessClaims.self)
            #expect(access.sub.value == fixture.userID)
            #expect(access.aud.value.contains(fixture.api.identifier))
            #expect(access.authorizationDetails == requested)
            let idToken = try await keys.verify(
                try #require(response.json["id_token"]?.stringValue), as: CIBAIDClaims.self)
            #expect(idToken.sub.value == fixture.userID)
            #expect(idToken.aud.value == [fixture.client.id])
            #expect(idToken.authTime == Int(fixture.warden.clock.now().timeIntervalSince1970))

            fixture.warden.clock.advance(by: 10)
            expectError(
                try await fixture.poll(id, http: http), status: .badRequest, code: "invalid_grant")
        }
        #expect(try await fixture.events("ciba_exchange_succeeded").count == 1)
        #expect(try await fixture.events("gd_auth_succeed").count == 1)
        #expect(try await fixture.events("gd_send_email").count == 1)
    }

    @Test func withoutOpenIDThereIsNoIDTokenAndWithoutOfflineAccessNoRefreshToken() async throws {
        let fixture = try await BackchannelFixture.make()
        try await fixture.warden.test { http in
            let id = try await fixture.started(["scope": "transfer:funds"], http: http)
            var browser = Browser(http)
            _ = try await fixture.decide(true, path: try await fixture.approvalPath(), browser: &browser)
            let response = try await fixture.poll(id, http: http)
            #expect(response.status == .ok)
            #expect(response.json["id_token"] == nil)
            #expect(response.json["refresh_token"] == nil)
            #expect(response.json["scope"] == "transfer:funds")
        }
    }

    @Test func aDeniedRequestAnswersAccessDeniedUntilItExpires() async throws {
        let fixture = try await BackchannelFixture.make()
        try await fixture.warden.test { http in
            let id = try await fixture.started(http: http)
            var browser = Browser(http)
            let denied = try await fixture.decide(false, path: try await fixture.approvalPath(), browser: &browser)
            #expect(denied.text.contains("You denied the request"))
            for _ in 0..<2 {
                let response = try await fixture.poll(id, http: http)
                expectError(response, status: .badRequest, code: "access_denied")
                #expect(
                    response.json["error_description"]
                        == "The end-user denied the authorization request or it has been expired")
            }
        }
        #expect(try await fixture.events("gd_auth_rejected").count == 1)
        #expect(try await fixture.events("ciba_exchange_failed").count == 2)
    }

    @Test func anUnansweredRequestExpires() async throws {
        let fixture = try await BackchannelFixture.make()
        try await fixture.warden.test { http in
            let id = try await fixture.started(http: http)
            #expect(try await fixture.poll(id, http: http).json["error"] == "authorization_pending")
            fixture.warden.clock.advance(by: 600.5)
            expectError(
                try await fixture.poll(id, http: http), status: .badRequest, code: "expired_token")
            // A node that never saw it reads the same from storage.
            await CacheRefreshService(runtime: fixture.warden.runtime).handle(.reconnected)
            expectError(
                try await fixture.poll(id, http: http), status: .badRequest, code: "expired_token")
        }
    }

    @Test func anApprovalTooLateToRedeemIsExpired() async throws {
        let fixture = try await BackchannelFixture.make()
        try await fixture.warden.test { http in
            let id = try await fixture.started(http: http)
            _ = try await fixture.warden.runtime.store.decideBackchannelRequest(
                id: BackchannelRequest.ID(authRequestID: id), approved: true, at: fixture.warden.clock.now())
            fixture.warden.clock.advance(by: 601)
            expectError(
                try await fixture.poll(id, http: http), status: .badRequest, code: "expired_token")
        }
    }

    @Test func unknownAndForeignRequestsAreInvalidGrants() async throws {
        let fixture = try await BackchannelFixture.make()
        let other = try await fixture.warden.makeClient(grantTypes: [.ciba])
        let otherCredentials = [("client_id", other.id), ("client_secret", other.secret)]
        try await fixture.warden.test { http in
            let id = try await fixture.started(http: http)
            expectError(
                try await fixture.poll(RandomToken.make(), http: http), status: .badRequest, code: "invalid_grant")
            expectError(
                try await fixture.poll(id, http: http, credentials: otherCredentials), status: .badRequest,
                code: "invalid_grant")
            // The other client's polls neither pace nor reveal the request; its owner still gets "pending".
            #expect(try await fixture.poll(id, http: http).json["error"] == "authorization_pending")
            await CacheRefreshService(runtime: fixture.warden.runtime).handle(.reconnected)
            expectError(
                try await fixture.poll(id, http: http, credentials: otherCredentials), status: .badRequest,
                code: "invalid_grant")
            expectError(
                try await fixture.poll(id, http: http, credentials: [("client_id", fixture.client.id)]),
                status: .unauthorized, code: "invalid_client")
            expectError(
                try await http.postForm(
                    "/oauth/token",
                    [
                        ("grant_type", GrantType.ciba.rawValue), ("client_id", fixture.client.id),
                        ("client_secret", fixture.client.secret),
                    ]),
                status: .badRequest, code: "invalid_request")
        }
    }

    @Test func aDecisionTakenOnAnotherNodeIsSeenOnItsAnnouncementOrAnExternalCommit() async throws {
        let fixture = try await BackchannelFixture.make()
        let runtime = fixture.warden.runtime
        try await fixture.warden.test { http in
            let first = try await fixture.started(http: http)
            let second = try await fixture.started(http: http)
            #expect(try await fixture.poll(first, http: http).json["error"] == "authorization_pending")
            #expect(try await fixture.poll(second, http: http).json["error"] == "authorization_pending")
            // Another node decides: storage changes, this node's memory does not.
            for id in [first, second] {
                _ = try await runtime.store.decideBackchannelRequest(
                    id: BackchannelRequest.ID(authRequestID: id), approved: true, at: runtime.clock.now())
            }
            fixture.warden.clock.advance(by: 5)
            #expect(try await fixture.poll(first, http: http).json["error"] == "authorization_pending")
            // Its announcement (PostgreSQL NOTIFY) reaches this node.
            await CacheRefreshService(runtime: runtime).handle(
                .backchannelDecided(requestID: BackchannelRequest.ID(authRequestID: first)))
            fixture.warden.clock.advance(by: 5)
            #expect(try await fixture.poll(first, http: http).status == .ok)
            #expect(try await fixture.poll(second, http: http).json["error"] == "authorization_pending")
            // Nodes on one SQLite file: another process's commit tells this node that anything may have changed.
            await CacheRefreshService(runtime: runtime).handle(.reconnected)
            #expect(try await fixture.poll(second, http: http).status == .ok)
        }
    }

    @Test func ofConcurrentRedemptionsExactlyOneGetsTokens() async throws {
        let fixture = try await BackchannelFixture.make()
        try await fixture.warden.test { http in
            let id = try await fixture.started(http: http)
            var browser = Browser(http)
            _ = try await fixture.decide(true, path: try await fixture.approvalPath(), browser: &browser)
            let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for _ in 0..<20 { group.addTask { try await fixture.poll(id, http: http).status } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == .ok }.count == 1)
            #expect(statuses.filter { $0 == .badRequest }.count == 19)
        }
    }
}

/// The access-token claims a CIBA grant adds (RFC 9396 §7.1).
struct CIBAAccessClaims: JWTPayload {
    var iss: IssuerClaim
    var sub: SubjectClaim
    var aud: AudienceClaim
    var exp: ExpirationClaim
    var scope: String
    var authorizationDetails: JSONValue?

    enum CodingKeys: String, CodingKey {
        case iss, sub, aud, exp, scope
        case authorizationDetails = "authorization_details"
    }

    func verify(using algorithm: some JWTAlgorithm) async throws { try exp.verifyNotExpired() }
}

/// The ID-token claims of a CIBA grant (CIBA Core §10.1.1).
struct CIBAIDClaims: JWTPayload {
    var iss: IssuerClaim
    var sub: SubjectClaim
    var aud: AudienceClaim
    var exp: ExpirationClaim
    var authTime: Int

    enum CodingKeys: String, CodingKey {
        case iss, sub, aud, exp
        case authTime = "auth_time"
    }

    func verify(using algorithm: some JWTAlgorithm) async throws { try exp.verifyNotExpired() }
}
