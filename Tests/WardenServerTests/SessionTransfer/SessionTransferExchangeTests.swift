import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
import WardenCore
import WardenTesting
import WardenWire

@testable import WardenServer

/// The exchange of a refresh token for a session transfer token at `/oauth/token` (SPEC §8, RFC 8693).
@Suite("SessionTransfer: exchange")
struct SessionTransferExchangeTests {
    typealias Fixture = SessionTransferFixture

    @Test(arguments: Fixture.Form.allCases)
    func bothFormsAnswerASingleUseTokenAndAnIDToken(form: Fixture.Form) async throws {
        let fixture = try await Fixture.make()
        let (response, refreshToken) = try await fixture.warden.test { http in
            let refreshToken = try await fixture.refreshToken(http: http)
            let response = try await fixture.exchange(
                refreshToken, form: form, http: http, headers: [.userAgent: "NativeApp/1.0"])
            return (response, refreshToken)
        }
        #expect(response.status == .ok, "\(response.json)")
        #expect(response.headers[.cacheControl] == "no-store")
        let body = try #require(response.json.objectValue)
        #expect(Set(body.keys) == ["access_token", "issued_token_type", "token_type", "expires_in", "id_token"])
        #expect(body["issued_token_type"] == "urn:auth0:params:oauth:token-type:session_transfer_token")
        #expect(body["token_type"] == "N_A")
        #expect(body["expires_in"] == 60)
        let token = try #require(body["access_token"]?.stringValue)
        #expect(token.count >= 43)
        let idToken = try CompactJWS(parsing: try #require(body["id_token"]?.stringValue))
        #expect(idToken.payload["sub"] == .string(fixture.native.user.userID))
        #expect(idToken.payload["aud"] == .string(fixture.native.client.id))

        // Stored by hash only, with who made it and from where.
        let payload = try #require(
            try await fixture.warden.runtime.store.peekArtefact(
                kind: SessionTransferToken.artefactKind, hash: SecretHash.sha256Hex(token),
                now: fixture.warden.clock.now()))
        #expect(!payload.contains(token))
        let stored = try JSONDecoder().decode(SessionTransferToken.self, from: Data(payload.utf8))
        #expect(stored.userID == fixture.native.user.userID && stored.clientID == fixture.native.client.id)
        #expect(stored.scope == RefreshTokenGrantTests.offline)
        #expect(stored.familyID == (try await fixture.family(of: refreshToken)))
        #expect(stored.binding == .none && stored.creator.userAgent == "NativeApp/1.0")

        let succeeded = try await fixture.native.logs("sertft")
        #expect(succeeded.count == 1)
        #expect(succeeded.first?.audience == Fixture.audience)
        #expect(succeeded.first?.userID == fixture.native.user.userID)
        #expect(succeeded.first?.clientID == fixture.native.client.id)
    }

    @Test(arguments: Fixture.Form.allCases)
    func aRotatingClientGetsASuccessorAndReuseRevokesTheFamily(form: Fixture.Form) async throws {
        let fixture = try await Fixture.make(rotating: true)
        try await fixture.warden.test { http in
            let first = try await fixture.refreshToken(http: http)
            let response = try await fixture.exchange(first, form: form, http: http)
            #expect(response.status == .ok, "\(response.json)")
            let second = try #require(response.json["refresh_token"]?.stringValue)
            #expect(second != first)
            #expect(try await fixture.family(of: second) == (try await fixture.family(of: first)))
            let third = try #require(
                try await fixture.exchange(second, form: form, http: http).json["refresh_token"]?.stringValue)
            expectError(
                try await fixture.exchange(first, form: form, http: http), status: .badRequest, code: "invalid_grant")
            expectError(
                try await fixture.native.refresh(third, http: http), status: .badRequest, code: "invalid_grant")
        }
        #expect(try await fixture.native.logs("ferrt").count == 1)
    }

    @Test(arguments: Fixture.Form.allCases)
    func aClientThatMayNotCreateTokensIsUnauthorizedAndKeepsItsToken(form: Fixture.Form) async throws {
        let fixture = try await Fixture.make(rotating: true) {
            $0.sessionTransfer?.canCreateSessionTransferToken = false
        }
        try await fixture.warden.test { http in
            let refreshToken = try await fixture.refreshToken(http: http)
            expectError(
                try await fixture.exchange(refreshToken, form: form, http: http), status: .badRequest,
                code: "unauthorized_client")
            #expect(try await fixture.native.refresh(refreshToken, http: http).status == .ok)
        }
        let failed = try await fixture.native.logs("fertft")
        #expect(failed.count == 1)
        #expect(failed.first?.audience == Fixture.audience)
        #expect(try await fixture.native.logs("sertft").count == 1)  // the plain refresh
    }

    @Test func tokenExchangeNeedsThatGrant() async throws {
        let fixture = try await Fixture.make { $0.grantTypes.removeAll { $0 == .tokenExchange } }
        try await fixture.warden.test { http in
            let refreshToken = try await fixture.refreshToken(http: http)
            expectError(
                try await fixture.exchange(refreshToken, form: .tokenExchange, http: http), status: .badRequest,
                code: "unauthorized_client")
            #expect(try await fixture.exchange(refreshToken, form: .sdk, http: http).status == .ok)
        }
    }

    @Test(arguments: Fixture.Form.allCases)
    func aBadRefreshTokenIsAnInvalidGrant(form: Fixture.Form) async throws {
        let fixture = try await Fixture.make()
        let other = try await Fixture.make(warden: fixture.warden)
        try await fixture.warden.test { http in
            let othersToken = try await other.refreshToken(http: http)
            for token in ["not-a-token", othersToken] {
                expectError(
                    try await fixture.exchange(token, form: form, http: http), status: .badRequest,
                    code: "invalid_grant")
            }
        }
        let failed = try await fixture.native.logs("fertft")
        #expect(failed.count == 2)
        #expect(failed.allSatisfy { $0.audience == Fixture.audience })
    }

    /// RFC 8693 §2.2.2: only a refresh token may be exchanged, only for the session transfer audience.
    @Test(
        arguments: [
            (["subject_token_type": "urn:ietf:params:oauth:token-type:access_token"], "invalid_request"),
            (["subject_token_type": nil], "invalid_request"),
            (["subject_token": nil], "invalid_request"),
            (["audience": "https://api.example.com/"], "invalid_target"),
            (["audience": nil], "invalid_request"),
        ] as [([String: String?], String)])
    func tokenExchangeParametersAreChecked(changes: [String: String?], code: String) async throws {
        let fixture = try await Fixture.make()
        try await fixture.warden.test { http in
            let refreshToken = try await fixture.refreshToken(http: http)
            expectError(
                try await fixture.exchange(refreshToken, form: .tokenExchange, http: http, changes: changes),
                status: .badRequest, code: code)
        }
    }

    @Test func theAudienceNamesTheIssuerHostWithoutItsPort() async throws {
        let warden = try await TestWarden.make { $0.issuer = URL(string: "https://login.example.com:8443/tenant/")! }
        let fixture = try await Fixture.make(warden: warden)
        try await warden.test { http in
            let refreshToken = try await fixture.refreshToken(http: http)
            let response = try await fixture.exchange(
                refreshToken, http: http, changes: ["audience": "urn:login.example.com:session_transfer"])
            #expect(response.json["token_type"] == "N_A")
            // Another audience is a plain refresh.
            let plain = try await fixture.exchange(refreshToken, http: http, changes: ["audience": nil])
            #expect(plain.json["token_type"] == "Bearer")
        }
    }
}
