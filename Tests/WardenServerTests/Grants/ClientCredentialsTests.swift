import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import JWTKit
import NIOCore
import Testing
import WardenCore
import WardenServer
import WardenTesting
import WardenWire

/// `client_credentials` at `/oauth/token` (RFC 6749 §4.4, SPEC §5) and the access token it issues (SPEC §3).
@Suite("client_credentials")
struct ClientCredentialsTests {
    struct AccessClaims: JWTPayload {
        var iss: IssuerClaim
        var sub: SubjectClaim
        var aud: AudienceClaim
        var exp: ExpirationClaim
        var iat: IssuedAtClaim
        var jti: IDClaim
        var scope: String
        var clientID: String
        var azp: String

        enum CodingKeys: String, CodingKey {
            case iss, sub, aud, exp, iat, jti, scope, azp
            case clientID = "client_id"
        }
        func verify(using algorithm: some JWTAlgorithm) async throws {
            try exp.verifyNotExpired()
        }
    }

    /// Verifies `token` against the JWKS the server publishes, with jwt-kit.
    static func verify(_ token: String, client: some TestClientProtocol) async throws -> AccessClaims {
        let jwks = try await client.execute(uri: "/.well-known/jwks.json", method: .get)
        let keys = try await JWTKeyCollection().add(jwksJSON: String(buffer: jwks.body))
        return try await keys.verify(token, as: AccessClaims.self)
    }

    @Test(arguments: [SigningAlgorithm.rs256, .es256, .ps256, .edDSA])
    func issuesAVerifiableAccessToken(alg: SigningAlgorithm) async throws {
        let warden = try await TestWarden.make()
        let api = try await warden.makeAPI(configure: {
            $0.signingAlg = alg; $0.tokenLifetime = 600
        })
        let client = try await warden.makeClient { $0.tokenEndpointAuthMethod = .clientSecretBasic }
        try await warden.grant(clientID: client.id, audience: api.identifier, scope: ["read:things", "write:things"])
        try await warden.test { http in
            let response = try await http.postForm(
                "/oauth/token",
                [("grant_type", "client_credentials"), ("audience", api.identifier), ("scope", "read:things")],
                headers: [.authorization: "Basic " + Data("\(client.id):\(client.secret)".utf8).base64EncodedString()])
            #expect(response.status == .ok)
            #expect(response.headers[.cacheControl] == "no-store")
            let body = response.json
            #expect(body["token_type"] == "Bearer")
            #expect(body["expires_in"] == 600)
            #expect(body["scope"] == "read:things")
            let token = try #require(body["access_token"]?.stringValue)
            let claims = try await Self.verify(token, client: http)
            #expect(claims.iss.value == "http://127.0.0.1:8080/")
            #expect(claims.sub.value == "\(client.id)@clients")
            #expect(claims.aud.value == [api.identifier])
            #expect(claims.clientID == client.id)
            #expect(claims.azp == client.id)
            #expect(claims.scope == "read:things")
            #expect(Int(claims.exp.value.timeIntervalSince1970) - Int(claims.iat.value.timeIntervalSince1970) == 600)
            #expect(try CompactJWS(parsing: token).header["typ"] == "at+jwt")
            #expect(try CompactJWS(parsing: token).alg == alg.rawValue)
        }
    }

    @Test func withoutScopeTheTokenGetsEveryGrantedScopeAndJSONBodiesWork() async throws {
        let warden = try await TestWarden.make()
        let api = try await warden.makeAPI()
        let client = try await warden.makeClient()
        try await warden.grant(clientID: client.id, audience: api.identifier, scope: ["read:things", "write:things"])
        try await warden.test { http in
            let json = """
                {"grant_type":"client_credentials","client_id":"\(client.id)","client_secret":"\(client.secret)",
                 "audience":"\(api.identifier)","scope":null,"organization":""}
                """
            let response = try await http.postJSON("/oauth/token", json)
            #expect(response.status == .ok)
            #expect(response.json["scope"] == "read:things write:things")
        }
    }

    @Test func aTokenSignedBeforeRotationStillVerifies() async throws {
        let warden = try await TestWarden.make()
        let api = try await warden.makeAPI()
        let client = try await warden.makeClient()
        try await warden.grant(clientID: client.id, audience: api.identifier, scope: ["read:things"])
        try await warden.test { http in
            let form: [(String, String)] = [
                ("grant_type", "client_credentials"), ("client_id", client.id), ("client_secret", client.secret),
                ("audience", api.identifier),
            ]
            let before = try #require(try await http.postForm("/oauth/token", form).json["access_token"]?.stringValue)
            try await warden.runtime.keys.rotate()
            let after = try #require(try await http.postForm("/oauth/token", form).json["access_token"]?.stringValue)
            #expect(try CompactJWS(parsing: before).kid != CompactJWS(parsing: after).kid)
            _ = try await Self.verify(before, client: http)
            _ = try await Self.verify(after, client: http)
        }
    }
}
