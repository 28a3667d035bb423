import Crypto
import Foundation
import HummingbirdTesting
import JWTKit
import Testing
import WardenCore
import WardenServer
import WardenTesting
import WardenWire

/// The ID token of the code flow (OIDC Core §2, §3.1.3.6, SPEC §3), checked with jwt-kit against the JWKS.
@Suite("ID token")
struct IDTokenTests {
    struct IDClaims: JWTPayload {
        var iss: IssuerClaim
        var sub: SubjectClaim
        var aud: AudienceClaim
        var exp: ExpirationClaim
        var iat: IssuedAtClaim
        var azp: String
        var authTime: Int
        var sid: String
        var nonce: String?
        var atHash: String
        var name: String?
        var nickname: String?
        var picture: String?
        var updatedAt: Int?
        var email: String?
        var emailVerified: Bool?

        enum CodingKeys: String, CodingKey {
            case iss, sub, aud, exp, iat, azp, sid, nonce, name, nickname, picture, email
            case authTime = "auth_time"
            case atHash = "at_hash"
            case updatedAt = "updated_at"
            case emailVerified = "email_verified"
        }

        func verify(using algorithm: some JWTAlgorithm) async throws {
            try exp.verifyNotExpired()
        }
    }

    /// OIDC Core §3.1.3.6: the left half of the access token's hash, base64url.
    static func expectedAtHash(_ accessToken: String, alg: SigningAlgorithm) -> String {
        let digest: [UInt8] =
            alg == .edDSA
            ? Array(SHA512.hash(data: Data(accessToken.utf8))) : Array(SHA256.hash(data: Data(accessToken.utf8)))
        return Base64URL.encode(digest.prefix(digest.count / 2))
    }

    @Test(arguments: [SigningAlgorithm.rs256, .es256, .edDSA])
    func theIDTokenValidatesWithAThirdPartyLibrary(alg: SigningAlgorithm) async throws {
        let flow = try await CodeFlowFixture.make {
            $0.jwtConfiguration = JWTConfiguration(alg: alg, lifetimeInSeconds: 600)
        }
        try await flow.warden.test { http in
            let body = try await flow.tokens(scope: ["openid", "profile", "email"], http: http)
            let idToken = try #require(body["id_token"]?.stringValue)
            let accessToken = try #require(body["access_token"]?.stringValue)
            let claims = try await CodeFlowFixture.publishedKeys(http: http).verify(idToken, as: IDClaims.self)
            let jws = try CompactJWS(parsing: idToken)
            #expect(jws.header["typ"] == "JWT")
            #expect(jws.alg == alg.rawValue)
            #expect(flow.warden.runtime.keys.ring.currentKey(for: alg)?.kid == jws.kid)
            #expect(claims.iss.value == "http://127.0.0.1:8080/")
            #expect(claims.sub.value == flow.user.userID)
            #expect(claims.aud.value == [flow.client.id])
            #expect(claims.azp == flow.client.id)
            #expect(Int(claims.exp.value.timeIntervalSince1970 - claims.iat.value.timeIntervalSince1970) == 600)
            #expect(claims.authTime == Int(flow.session.authTime.timeIntervalSince1970))
            #expect(claims.sid == flow.session.id)
            #expect(claims.nonce == "n-0S6_WzA2Mj")
            #expect(claims.atHash == Self.expectedAtHash(accessToken, alg: alg))
            #expect(claims.name == "Alice Example")
            #expect(claims.email == flow.user.email)
        }
    }

    @Test func integerTimesAndNoNonceWhenNoneWasSent() async throws {
        let flow = try await CodeFlowFixture.make()
        try await flow.warden.test { http in
            let response = try await flow.exchange(try await flow.code(scope: ["openid"], nonce: nil), http: http)
            let payload = try CompactJWS(parsing: try #require(response.json["id_token"]?.stringValue)).payload
            #expect(payload["nonce"] == nil)
            for claim in ["iat", "exp", "auth_time"] {
                let value = try #require(payload[claim]?.doubleValue)
                #expect(value == value.rounded())
            }
        }
    }

    /// OIDC Core §5.4: `profile` and `email` release their claims, and nothing else does.
    @Test(arguments: [
        (["openid"], [String]()),
        (["openid", "profile"], ["name", "given_name", "family_name", "nickname", "picture", "updated_at"]),
        (["openid", "email"], ["email", "email_verified"]),
        (
            ["openid", "profile", "email"],
            ["name", "given_name", "family_name", "nickname", "picture", "updated_at", "email", "email_verified"]
        ),
    ])
    func profileClaimsFollowTheScope(scope: [String], released: [String]) async throws {
        let flow = try await CodeFlowFixture.make()
        try await flow.warden.test { http in
            let body = try await flow.tokens(scope: scope, http: http)
            let payload = try CompactJWS(parsing: try #require(body["id_token"]?.stringValue)).payload
            let profile: Set = [
                "name", "given_name", "family_name", "nickname", "picture", "updated_at", "email", "email_verified",
            ]
            #expect(Set(payload.keys).intersection(profile) == Set(released))
            if scope.contains("profile") {
                #expect(payload["updated_at"] == .number(flow.user.updatedAt.timeIntervalSince1970.rounded(.down)))
            }
            if scope.contains("profile") {
                #expect(payload["given_name"] == "Alice" && payload["family_name"] == "Example")
            }
            if scope.contains("email") { #expect(payload["email_verified"] == true) }
        }
    }
}
