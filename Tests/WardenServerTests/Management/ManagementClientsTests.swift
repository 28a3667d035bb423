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

/// `/api/v2/clients` (SPEC §4, §9).
@Suite("Management API: clients")
struct ManagementClientsTests {
    @Test func createReturnsTheSecretOnceAndStoresOnlyItsHash() async throws {
        let warden = try await TestWarden.make()
        try await warden.management { admin in
            let created = try await admin.expect(
                .created, .post, "clients",
                json: [
                    "name": "Billing", "app_type": "regular_web",
                    "grant_types": ["authorization_code", "refresh_token"],
                    "callbacks": ["https://billing.example.com/callback"],
                ])
            let id = try #require(created["client_id"]?.stringValue)
            let secret = try #require(created["client_secret"]?.stringValue)
            #expect(id.count == 32)
            #expect(Base64URL.decode(secret)?.count == 32)
            #expect(created["token_endpoint_auth_method"] == "client_secret_post")
            #expect(created["is_first_party"] == true)
            let stored = try #require(try await warden.runtime.store.client(id: id))
            #expect(stored.secretHash == SecretHash.sha256Hex(secret))

            let read = try await admin.expect(.ok, .get, "clients/\(id)")
            #expect(read["client_secret"] == nil)
            #expect(read["name"] == "Billing")
            #expect(read["callbacks"] == ["https://billing.example.com/callback"])
            #expect(!String(describing: read).contains(stored.secretHash!))
        }
    }

    @Test func publicClientsGetNoSecret() async throws {
        let warden = try await TestWarden.make()
        try await warden.management { admin in
            let created = try await admin.expect(
                .created, .post, "clients",
                json: ["name": "App", "app_type": "native", "token_endpoint_auth_method": "none"])
            #expect(created["client_secret"] == nil)
            let id = try #require(created["client_id"]?.stringValue)
            #expect(try await warden.runtime.store.client(id: id)?.secretHash == nil)
        }
    }

    @Test func patchMergesAndNullRemovesOrResets() async throws {
        let warden = try await TestWarden.make()
        try await warden.management { admin in
            let created = try await admin.expect(
                .created, .post, "clients",
                json: [
                    "name": "Web", "description": "first",
                    "session_transfer": ["allowed_authentication_methods": ["cookie"]],
                    "jwt_configuration": ["alg": "ES256"],
                ])
            let id = try #require(created["client_id"]?.stringValue)
            #expect(created["session_transfer"]?["enforce_device_binding"] == "ip")
            #expect(created["session_transfer"]?["enforce_cascade_revocation"] == true)

            let patched = try await admin.expect(
                .ok, .patch, "clients/\(id)",
                json: ["name": "Web 2", "session_transfer": nil, "jwt_configuration": nil, "is_first_party": false])
            #expect(patched["name"] == "Web 2")
            #expect(patched["description"] == "first")
            #expect(patched["session_transfer"] == nil)
            #expect(patched["jwt_configuration"]?["alg"] == "RS256")
            #expect(patched["is_first_party"] == false)
            let reset = try await admin.expect(.ok, .patch, "clients/\(id)", json: ["is_first_party": nil])
            #expect(reset["is_first_party"] == true)
            #expect(try await warden.runtime.cache.client(id: id)?.client.name == "Web 2")
        }
    }

    @Test func rotateSecretReplacesTheSecretAtOnce() async throws {
        let warden = try await TestWarden.make()
        try await warden.management { admin in
            let created = try await admin.expect(
                .created, .post, "clients", json: ["name": "M2M", "grant_types": ["client_credentials"]])
            let id = try #require(created["client_id"]?.stringValue)
            let old = try #require(created["client_secret"]?.stringValue)
            try await admin.expect(
                .created, .post, "client-grants",
                json: ["client_id": .string(id), "audience": .string(ManagementSession.audience), "scope": []])
            let rotated = try await admin.expect(.ok, .post, "clients/\(id)/rotate-secret")
            let new = try #require(rotated["client_secret"]?.stringValue)
            #expect(new != old)
            for (secret, status) in [(old, HTTPResponse.Status.unauthorized), (new, .ok)] {
                let response = try await admin.http.postForm(
                    "/oauth/token",
                    [
                        ("grant_type", "client_credentials"), ("client_id", id), ("client_secret", secret),
                        ("audience", ManagementSession.audience),
                    ])
                #expect(response.status == status)
            }
            try await admin.expectError(404, "inexistent_client", .post, "clients/nope/rotate-secret")
        }
    }

    @Test func privateKeyJWTCredentialsAreStoredButThePEMIsNeverReturned() async throws {
        let warden = try await TestWarden.make()
        let key = ES256PrivateKey()
        let pem = key.publicKey.pemRepresentation
        try await warden.management { admin in
            let created = try await admin.expect(
                .created, .post, "clients",
                json: [
                    "name": "Signed", "grant_types": ["client_credentials"],
                    "client_authentication_methods": [
                        "private_key_jwt": [
                            "credentials": [["credential_type": "public_key", "name": "key 1", "pem": .string(pem)]]
                        ]
                    ],
                ])
            #expect(created["client_secret"] == nil)
            #expect(created["token_endpoint_auth_method"] == nil)
            let credential = try #require(
                created["client_authentication_methods"]?["private_key_jwt"]?["credentials"]?.arrayValue?.first)
            let credentialID = try #require(credential["id"]?.stringValue)
            #expect(credentialID.hasPrefix("cred_"))
            #expect(credential["pem"] == nil)
            #expect(credential["name"] == "key 1")
            let id = try #require(created["client_id"]?.stringValue)
            let stored = try await warden.runtime.store.client(id: id)
            #expect(stored?.client.clientAuthenticationMethods?.privateKeyJWT?.credentials.first?.pem == pem)

            let kept = try await admin.expect(
                .ok, .patch, "clients/\(id)",
                json: [
                    "client_authentication_methods": [
                        "private_key_jwt": ["credentials": [["id": .string(credentialID)]]]
                    ]
                ])
            #expect(
                kept["client_authentication_methods"]?["private_key_jwt"]?["credentials"]?.strings("id") == [
                    credentialID
                ])
            let read = try await admin.call(.get, "clients/\(id)")
            #expect(!String(buffer: read.body).contains("BEGIN PUBLIC KEY"))

            try await admin.expect(
                .created, .post, "client-grants",
                json: ["client_id": .string(id), "audience": .string(ManagementSession.audience), "scope": []])
            let assertion = try await PrivateKeyJWTTests.assertion(
                key: key, clientID: id, audience: "http://127.0.0.1:8080/", now: warden.clock.now())
            let token = try await admin.http.postForm(
                "/oauth/token",
                [
                    ("grant_type", "client_credentials"), ("audience", ManagementSession.audience),
                    ("client_assertion_type", "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"),
                    ("client_assertion", assertion),
                ])
            #expect(token.status == .ok, "\(String(buffer: token.body))")
        }
    }

    /// Bodies refused with 400 `invalid_body`, each naming the property at fault.
    @Test(arguments: [
        (#"{"app_type": "desktop"}"#, "app_type"),
        (#"{"token_endpoint_auth_method": "private_key_jwt"}"#, "token_endpoint_auth_method"),
        (#"{"grant_types": ["client_credentials", "magic"]}"#, "grant_types[1]"),
        (#"{"callbacks": ["not a url"]}"#, "callbacks[0]"),
        (#"{"callbacks": ["https://x.example.com/cb#fragment"]}"#, "callbacks[0]"),
        (#"{"jwt_configuration": {"alg": "HS256"}}"#, "jwt_configuration.alg"),
        (#"{"jwt_configuration": {"lifetime_in_seconds": "long"}}"#, "jwt_configuration.lifetime_in_seconds"),
        (#"{"session_transfer": {"enforce_device_binding": "mac"}}"#, "session_transfer.enforce_device_binding"),
        (
            #"{"session_transfer": {"allowed_authentication_methods": ["header"]}}"#,
            "session_transfer.allowed_authentication_methods[0]"
        ),
        (#"{"backchannel_token_delivery_mode": "push"}"#, "backchannel_token_delivery_mode"),
        (#"{"backchannel_token_delivery_mode": "ping"}"#, "backchannel_client_notification_endpoint"),
        (
            #"{"backchannel_token_delivery_mode": "ping", "#
                + #""backchannel_client_notification_endpoint": "ftp://x.example"}"#,
            "backchannel_client_notification_endpoint"
        ),
        (#"{"client_metadata": {"tier": 3}}"#, "client_metadata.tier"),
        (#"{"is_first_party": "yes"}"#, "is_first_party"),
        (#"{"client_id": "chosen"}"#, "client_id"),
        (
            #"{"client_authentication_methods": {"private_key_jwt": {"credentials": "#
                + #"[{"credential_type": "public_key", "pem": "garbage"}]}}}"#,
            "client_authentication_methods.private_key_jwt.credentials[0].pem"
        ),
    ])
    func invalidClientBodiesAre400(body: String, property: String) async throws {
        let warden = try await TestWarden.make()
        try await warden.management { admin in
            var members = try JSONDecoder().decode(JSONValue.self, from: Data(body.utf8)).objectValue ?? [:]
            members["name"] = "Client"
            let message = try await admin.expectError(400, "invalid_body", .post, "clients", json: .object(members))
            #expect(message.contains(property), "\(message)")
        }
    }

    @Test func nameIsRequiredAndAPingClientNeedsItsEndpoint() async throws {
        let warden = try await TestWarden.make()
        try await warden.management { admin in
            try await admin.expectError(400, "invalid_body", .post, "clients", json: ["app_type": "spa"])
            let ping = try await admin.expect(
                .created, .post, "clients",
                json: [
                    "name": "CIBA", "grant_types": ["urn:openid:params:grant-type:ciba"],
                    "backchannel_token_delivery_mode": "ping",
                    "backchannel_client_notification_endpoint": "https://rp.example.com/cb",
                ])
            let id = try #require(ping["client_id"]?.stringValue)
            try await admin.expectError(
                400, "invalid_body", .patch, "clients/\(id)", json: ["backchannel_client_notification_endpoint": nil])
        }
    }

    @Test func aNewAlgorithmGetsItsKey() async throws {
        let warden = try await TestWarden.make()
        #expect(warden.runtime.keys.ring.currentKey(for: .edDSA) == nil)
        try await warden.management { admin in
            try await admin.expect(
                .created, .post, "clients", json: ["name": "Ed", "jwt_configuration": ["alg": "EdDSA"]])
        }
        #expect(warden.runtime.keys.ring.currentKey(for: .edDSA) != nil)
    }

    @Test func deleteIs204ThenUnknownIs404() async throws {
        let warden = try await TestWarden.make()
        try await warden.management { admin in
            let created = try await admin.expect(.created, .post, "clients", json: ["name": "Gone"])
            let id = try #require(created["client_id"]?.stringValue)
            let deleted = try await admin.call(.delete, "clients/\(id)")
            #expect(deleted.status == .noContent)
            try await admin.expectError(404, "inexistent_client", .get, "clients/\(id)")
            try await admin.expectError(404, "inexistent_client", .patch, "clients/\(id)", json: ["name": "x"])
            try await admin.expectError(404, "inexistent_client", .delete, "clients/\(id)")
            #expect(try await warden.runtime.cache.client(id: id) == nil)
        }
    }

    @Test func listPagesWithAndWithoutTotals() async throws {
        let warden = try await TestWarden.make()
        try await warden.management { admin in
            for index in 0..<3 {
                try await admin.expect(.created, .post, "clients", json: ["name": .string("Client \(index)")])
            }
            let bare = try await admin.expect(.ok, .get, "clients?per_page=2&page=0")
            #expect(bare.arrayValue?.count == 2)
            let totals = try await admin.expect(.ok, .get, "clients?per_page=2&page=1&include_totals=true")
            #expect(totals["start"] == 2)
            #expect(totals["limit"] == 2)
            #expect(totals["length"] == 2)
            #expect(totals["total"] == 5)  // the three, the bootstrap management client and the console's (SPEC §14)
            #expect(totals["clients"]?.arrayValue?.count == 2)
            let past = try await admin.expect(.ok, .get, "clients?per_page=50&page=3")
            #expect(past == [])
            try await admin.expectError(400, "invalid_query_string", .get, "clients?per_page=500")
        }
    }
}
