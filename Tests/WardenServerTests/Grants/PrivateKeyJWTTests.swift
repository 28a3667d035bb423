import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import JWTKit
import Testing
import WardenCore
import WardenTesting
import WardenWire

/// `private_key_jwt` client authentication (RFC 7523 §3, SPEC §4), assertions signed by jwt-kit.
@Suite("private_key_jwt")
struct PrivateKeyJWTTests {
    struct Assertion: JWTPayload {
        var iss: IssuerClaim
        var sub: SubjectClaim
        var aud: AudienceClaim
        var exp: ExpirationClaim
        var jti: IDClaim
        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }

    static func assertion(
        key: ES256PrivateKey, clientID: String, audience: String, lifetime: Double = 60,
        jti: String = UUID().uuidString,
        now: Date
    ) async throws -> String {
        let keys = await JWTKeyCollection().add(ecdsa: key)
        return try await keys.sign(
            Assertion(
                iss: .init(value: clientID), sub: .init(value: clientID), aud: .init(value: [audience]),
                exp: .init(value: now.addingTimeInterval(lifetime)), jti: .init(value: jti)))
    }

    @Test(arguments: ["http://127.0.0.1:8080/", "http://127.0.0.1:8080/oauth/token", "https://127.0.0.1:8080/"])
    func acceptedOnceThenReplayIsRefused(audience: String) async throws {
        let warden = try await TestWarden.make()
        let api = try await warden.makeAPI()
        let key = ES256PrivateKey()
        let client = try await warden.makeClient(configure: {
            $0.tokenEndpointAuthMethod = nil
            $0.clientAuthenticationMethods = .init(
                privateKeyJWT: .init(credentials: [
                    .init(id: "cred_1", credentialType: "public_key", name: "k1", pem: key.publicKey.pemRepresentation)
                ]))
        })
        try await warden.grant(clientID: client.id, audience: api.identifier, scope: ["read:things"])
        let assertion = try await Self.assertion(
            key: key, clientID: client.id, audience: audience, now: warden.clock.now())
        let form: [(String, String)] = [
            ("grant_type", "client_credentials"), ("audience", api.identifier),
            ("client_assertion_type", "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"),
            ("client_assertion", assertion),
        ]
        try await warden.test { http in
            let first = try await http.postForm("/oauth/token", form)
            #expect(first.status == .ok)
            let replay = try await http.postForm("/oauth/token", form)
            #expect(replay.status == .unauthorized)
            #expect(replay.json["error"] == "invalid_client")
        }
    }

    @Test func wrongKeyWrongAudienceAndLongLifetimeAreRefused() async throws {
        let warden = try await TestWarden.make()
        let api = try await warden.makeAPI()
        let key = ES256PrivateKey()
        let client = try await warden.makeClient(configure: {
            $0.clientAuthenticationMethods = .init(
                privateKeyJWT: .init(credentials: [
                    .init(id: "cred_1", credentialType: "public_key", name: "k1", pem: key.publicKey.pemRepresentation)
                ]))
        })
        try await warden.grant(clientID: client.id, audience: api.identifier, scope: ["read:things"])
        let now = warden.clock.now()
        let bad = [
            try await Self.assertion(
                key: ES256PrivateKey(), clientID: client.id, audience: "http://127.0.0.1:8080/", now: now),
            try await Self.assertion(key: key, clientID: client.id, audience: "https://evil.example.com/", now: now),
            try await Self.assertion(
                key: key, clientID: client.id, audience: "http://127.0.0.1:8080/", lifetime: 3600, now: now),
            try await Self.assertion(
                key: key, clientID: client.id, audience: "http://127.0.0.1:8080/", lifetime: -10, now: now),
        ]
        try await warden.test { http in
            for assertion in bad {
                let response = try await http.postForm(
                    "/oauth/token",
                    [
                        ("grant_type", "client_credentials"), ("audience", api.identifier),
                        ("client_assertion_type", "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"),
                        ("client_assertion", assertion),
                    ])
                #expect(response.status == .unauthorized)
                #expect(response.json["error"] == "invalid_client")
            }
        }
    }
}
