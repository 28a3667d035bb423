import Foundation
import HTTPTypes
import Testing
import WardenCore
import WardenServer
import WardenTesting
import WardenWire

/// The client `session_transfer` object of the Management API (SPEC §8 table, §9 PATCH semantics).
@Suite("SessionTransfer: client settings")
struct SessionTransferClientSettingsTests {
    @Test func anEmptyObjectGetsEveryDefault() async throws {
        let warden = try await TestWarden.make()
        try await warden.management { admin in
            let created = try await admin.expect(
                .created, .post, "clients", json: ["name": "Native", "session_transfer": [:]])
            #expect(
                created["session_transfer"]
                    == [
                        "can_create_session_transfer_token": false, "allowed_authentication_methods": [],
                        "enforce_device_binding": "ip", "allow_refresh_token": false,
                        "enforce_cascade_revocation": true,
                    ])
        }
    }

    @Test func patchSetsTheObjectAndNullRemovesIt() async throws {
        let warden = try await TestWarden.make()
        try await warden.management { admin in
            let created = try await admin.expect(.created, .post, "clients", json: ["name": "Web"])
            #expect(created["session_transfer"] == nil)
            let id = try #require(created["client_id"]?.stringValue)
            let settings: JSONValue = [
                "can_create_session_transfer_token": true, "allowed_authentication_methods": ["query", "cookie"],
                "enforce_device_binding": "asn", "allow_refresh_token": true, "enforce_cascade_revocation": false,
            ]
            let patched = try await admin.expect(.ok, .patch, "clients/\(id)", json: ["session_transfer": settings])
            #expect(patched["session_transfer"] == settings)
            let stored = try #require(try await warden.runtime.store.client(id: id)?.client.sessionTransfer)
            #expect(stored.enforceDeviceBinding == .asn && stored.allowedAuthenticationMethods == ["query", "cookie"])

            let none = try await admin.expect(
                .ok, .patch, "clients/\(id)", json: ["session_transfer": ["enforce_device_binding": "none"]])
            #expect(none["session_transfer"]?["enforce_device_binding"] == "none")
            #expect(none["session_transfer"]?["can_create_session_transfer_token"] == false)

            let removed = try await admin.expect(.ok, .patch, "clients/\(id)", json: ["session_transfer": nil])
            #expect(removed["session_transfer"] == nil)
            #expect(try await warden.runtime.store.client(id: id)?.client.sessionTransfer == nil)
        }
    }

    @Test func repeatedMethodsAreKeptOnce() async throws {
        let warden = try await TestWarden.make()
        try await warden.management { admin in
            let created = try await admin.expect(
                .created, .post, "clients",
                json: ["name": "Web", "session_transfer": ["allowed_authentication_methods": ["cookie", "cookie"]]])
            #expect(created["session_transfer"]?["allowed_authentication_methods"] == ["cookie"])
        }
    }

    /// Refused on create and on PATCH with 400 `invalid_body` naming the property.
    @Test(arguments: [
        (#"{"enforce_device_binding": "mac"}"#, "session_transfer.enforce_device_binding"),
        (#"{"enforce_device_binding": 1}"#, "session_transfer.enforce_device_binding"),
        (
            #"{"allowed_authentication_methods": ["cookie", "header"]}"#,
            "session_transfer.allowed_authentication_methods[1]"
        ),
        (#"{"allowed_authentication_methods": "cookie"}"#, "session_transfer.allowed_authentication_methods"),
        (#"{"can_create_session_transfer_token": "yes"}"#, "session_transfer.can_create_session_transfer_token"),
        (#"{"allow_refresh_token": 1}"#, "session_transfer.allow_refresh_token"),
        (
            #"{"enforce_cascade_revocation": null, "enforce_online_refresh_tokens": true}"#,
            "session_transfer.enforce_online_refresh_tokens"
        ),
        (#""cookie""#, "session_transfer"),
    ])
    func invalidSettingsAre400(settings: String, property: String) async throws {
        let warden = try await TestWarden.make()
        let value = try JSONDecoder().decode(JSONValue.self, from: Data(settings.utf8))
        try await warden.management { admin in
            let created = try await admin.expect(.created, .post, "clients", json: ["name": "Client"])
            let id = try #require(created["client_id"]?.stringValue)
            for (method, uri) in [(HTTPRequest.Method.post, "clients"), (.patch, "clients/\(id)")] {
                var body: [String: JSONValue] = ["session_transfer": value]
                if method == .post { body["name"] = "Client" }
                let message = try await admin.expectError(400, "invalid_body", method, uri, json: .object(body))
                #expect(message.contains(property), "\(message)")
            }
        }
    }
}
