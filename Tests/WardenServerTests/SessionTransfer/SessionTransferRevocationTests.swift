import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
import WardenCore
import WardenTesting
import WardenWire

@testable import WardenServer

/// SPEC §8 `enforce_cascade_revocation`: revoking the native refresh token ends the web sessions made from it.
@Suite("SessionTransfer: cascade revocation")
struct SessionTransferRevocationTests {
    typealias Fixture = SessionTransferFixture

    /// A web session made from a new refresh token of the native client, and a refresh token the web client got
    /// within it.
    static func transferredSession(
        _ fixture: Fixture, http: some TestClientProtocol
    ) async throws -> (refreshToken: String, session: Session, webRefreshToken: String) {
        let refreshToken = try await fixture.refreshToken(http: http)
        let token = try #require(try await fixture.exchange(refreshToken, http: http).json["access_token"]?.stringValue)
        let accepted = try await fixture.authorize(
            http: http, query: token, changes: ["scope": "openid offline_access"])
        let session = try #require(try await fixture.session(setBy: accepted))
        let tokens = try await fixture.redeemWebCode(try #require(accepted.redirectParameters["code"]), http: http)
        let webRefreshToken = try #require(tokens.json["refresh_token"]?.stringValue)
        return (refreshToken, session, webRefreshToken)
    }

    static func make(rotating: Bool = false, cascade: Bool = true) async throws -> Fixture {
        try await Fixture.make(rotating: rotating) {
            $0.sessionTransfer?.enforceCascadeRevocation = cascade
        } web: {
            $0.sessionTransfer?.allowRefreshToken = true
        }
    }

    @Test(arguments: [true, false])
    func revokingTheNativeTokenEndsTheWebSessionUnlessTurnedOff(cascade: Bool) async throws {
        let fixture = try await Self.make(cascade: cascade)
        try await fixture.warden.test { http in
            let made = try await Self.transferredSession(fixture, http: http)
            let untouched = try await Self.transferredSession(fixture, http: http)
            let revoke = try await http.postForm(
                "/oauth/revoke", [("client_id", fixture.native.client.id), ("token", made.refreshToken)])
            #expect(revoke.status == .ok)

            let store = fixture.warden.runtime.store
            #expect((try await store.session(id: made.session.id) == nil) == cascade)
            #expect(
                try await fixture.web.refreshTokenUse(made.webRefreshToken, http: http) == (cascade ? .badRequest : .ok)
            )
            #expect(try await store.session(id: untouched.session.id) != nil)
            #expect(try await fixture.web.refreshTokenUse(untouched.webRefreshToken, http: http) == .ok)
        }
    }

    @Test func reuseOfARotatedNativeTokenEndsTheWebSession() async throws {
        let fixture = try await Self.make(rotating: true)
        try await fixture.warden.test { http in
            let made = try await Self.transferredSession(fixture, http: http)
            // The exchange rotated the native token: presenting it again is a reuse.
            expectError(
                try await fixture.native.refresh(made.refreshToken, http: http), status: .badRequest,
                code: "invalid_grant")
            #expect(try await fixture.warden.runtime.store.session(id: made.session.id) == nil)
            #expect(try await fixture.web.refreshTokenUse(made.webRefreshToken, http: http) == .badRequest)
        }
    }
}

extension FrontChannelFixture {
    /// The status of a refresh with `token` by this (public) client.
    func refreshTokenUse(_ token: String, http: some TestClientProtocol) async throws -> HTTPResponse.Status {
        try await http.postForm(
            "/oauth/token", [("grant_type", "refresh_token"), ("client_id", clientID), ("refresh_token", token)]
        ).status
    }
}
