import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import JWTKit
import Testing
import WardenCore
import WardenServer
import WardenTesting
import WardenWire

/// SPEC §4 "The registered method is enforced": a secret is accepted only the way the client's
/// `token_endpoint_auth_method` says, `private_key_jwt` credentials replace a secret, `rotate-secret` needs a
/// secret method, and at `/oauth/revoke` an assertion's `aud` may be that endpoint's URL.
@Suite("Client authentication method")
struct ClientAuthenticationMethodTests {
    static func basic(_ id: String, _ secret: String) -> HTTPFields {
        [.authorization: "Basic " + Data("\(id):\(secret)".utf8).base64EncodedString()]
    }

    static func clientCredentials(_ audience: String) -> [(String, String)] {
        [("grant_type", "client_credentials"), ("audience", audience)]
    }

    @Test func aBasicClientSendingItsSecretInTheBodyIsInvalidClient() async throws {
        let warden = try await TestWarden.make()
        let api = try await warden.makeAPI()
        let client = try await warden.makeClient { $0.tokenEndpointAuthMethod = .clientSecretBasic }
        try await warden.grant(clientID: client.id, audience: api.identifier, scope: ["read:things"])
        try await warden.test { http in
            let posted = try await http.postForm(
                "/oauth/token",
                Self.clientCredentials(api.identifier) + [("client_id", client.id), ("client_secret", client.secret)])
            #expect(posted.status == .unauthorized)
            #expect(posted.json["error"] == "invalid_client")
            let basic = try await http.postForm(
                "/oauth/token", Self.clientCredentials(api.identifier), headers: Self.basic(client.id, client.secret))
            #expect(basic.status == .ok)
        }
    }

    @Test func aPostClientSendingItsSecretByHTTPBasicIsInvalidClient() async throws {
        let warden = try await TestWarden.make()
        let api = try await warden.makeAPI()
        let client = try await warden.makeClient { $0.tokenEndpointAuthMethod = .clientSecretPost }
        try await warden.grant(clientID: client.id, audience: api.identifier, scope: ["read:things"])
        try await warden.test { http in
            let basic = try await http.postForm(
                "/oauth/token", Self.clientCredentials(api.identifier), headers: Self.basic(client.id, client.secret))
            #expect(basic.status == .unauthorized)
            #expect(basic.json["error"] == "invalid_client")
            #expect(basic.headers[.wwwAuthenticate]?.hasPrefix("Basic") == true)
            let posted = try await http.postForm(
                "/oauth/token",
                Self.clientCredentials(api.identifier) + [("client_id", client.id), ("client_secret", client.secret)])
            #expect(posted.status == .ok)
        }
    }

    @Test func aPrivateKeyJWTClientSendingASecretIsInvalidClient() async throws {
        let warden = try await TestWarden.make()
        let api = try await warden.makeAPI()
        let client = try await warden.makeKeyedClient(key: ES256PrivateKey())
        try await warden.grant(clientID: client.id, audience: api.identifier, scope: ["read:things"])
        try await warden.test { http in
            for headers in [Self.basic(client.id, client.secret), [:]] {
                let body =
                    Self.clientCredentials(api.identifier)
                    + (headers.isEmpty ? [("client_id", client.id), ("client_secret", client.secret)] : [])
                let response = try await http.postForm("/oauth/token", body, headers: headers)
                #expect(response.status == .unauthorized)
                #expect(response.json["error"] == "invalid_client")
            }
        }
    }

    @Test func registeringPrivateKeyJWTCredentialsRemovesTheSecret() async throws {
        let warden = try await TestWarden.make()
        let api = try await warden.makeAPI()
        let key = ES256PrivateKey()
        try await warden.management { admin in
            let created = try await admin.expect(
                .created, .post, "clients",
                json: [
                    "name": "Moving", "grant_types": ["client_credentials"],
                    "token_endpoint_auth_method": "client_secret_post",
                ])
            let id = try #require(created["client_id"]?.stringValue)
            let secret = try #require(created["client_secret"]?.stringValue)
            try await admin.expect(
                .created, .post, "client-grants",
                json: ["client_id": .string(id), "audience": .string(api.identifier), "scope": ["read:things"]])
            let form = Self.clientCredentials(api.identifier) + [("client_id", id), ("client_secret", secret)]
            #expect(try await admin.http.postForm("/oauth/token", form).status == .ok)

            try await admin.expect(
                .ok, .patch, "clients/\(id)",
                json: [
                    "client_authentication_methods": [
                        "private_key_jwt": [
                            "credentials": [
                                ["credential_type": "public_key", "pem": .string(key.publicKey.pemRepresentation)]
                            ]
                        ]
                    ]
                ])
            let refused = try await admin.http.postForm("/oauth/token", form)
            #expect(refused.status == .unauthorized)
            #expect(refused.json["error"] == "invalid_client")
            #expect(try await warden.runtime.store.client(id: id)?.secretHash == nil)
            try await admin.expectError(400, "invalid_body", .post, "clients/\(id)/rotate-secret")
        }
    }

    @Test func rotateSecretOnAPublicClientIsInvalidBody() async throws {
        let warden = try await TestWarden.make()
        try await warden.management { admin in
            let created = try await admin.expect(
                .created, .post, "clients",
                json: ["name": "Public", "app_type": "spa", "token_endpoint_auth_method": "none"])
            let id = try #require(created["client_id"]?.stringValue)
            try await admin.expectError(400, "invalid_body", .post, "clients/\(id)/rotate-secret")
        }
    }

    /// SPEC §4: iddawc signs revocation assertions for the revocation endpoint's own URL; the token endpoint
    /// still refuses that audience.
    @Test func anAssertionForTheRevocationEndpointIsAcceptedThereOnly() async throws {
        let warden = try await TestWarden.make()
        let key = ES256PrivateKey()
        let client = try await warden.makeKeyedClient(key: key)
        let revoke = "http://127.0.0.1:8080/oauth/revoke"
        let forRevoke = try await warden.assertionFields(key: key, clientID: client.id, audience: revoke)
        let forRevokeAgain = try await warden.assertionFields(key: key, clientID: client.id, audience: revoke)
        try await warden.test { http in
            #expect(try await http.postForm("/oauth/revoke", [("token", "not-a-token")] + forRevoke).status == .ok)
            let atToken = try await http.postForm(
                "/oauth/token", [("grant_type", "client_credentials"), ("audience", "x")] + forRevokeAgain)
            #expect(atToken.status == .unauthorized)
            #expect(atToken.json["error"] == "invalid_client")
        }
    }
}
