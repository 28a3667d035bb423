import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import WardenCore
import WardenServer
import WardenTesting
import WardenWire

/// `/api/v2/resource-servers` (SPEC §9) and the system API (SPEC §1).
@Suite("Management API: resource servers")
struct ManagementResourceServersTests {
    static let identifier = "https://api.example.com/"

    @Test func crudRoundTripByIdAndByEncodedIdentifier() async throws {
        let warden = try await TestWarden.make()
        try await warden.management { admin in
            let created = try await admin.expect(
                .created, .post, "resource-servers",
                json: [
                    "identifier": .string(Self.identifier), "name": "Bank",
                    "scopes": [["value": "read:balance", "description": "Read"], ["value": "transfer:funds"]],
                    "authorization_details": [["type": "money_transfer"]], "token_lifetime": 600,
                    "enforce_policies": true, "allow_offline_access": true,
                ])
            let id = try #require(created["id"]?.stringValue)
            #expect(id.count == 24)
            #expect(created["is_system"] == false)
            #expect(created["signing_alg"] == "RS256")
            #expect(created["scopes"]?.strings("value") == ["read:balance", "transfer:funds"])
            #expect(try await warden.runtime.cache.resourceServer(identifier: Self.identifier)?.tokenLifetime == 600)

            let byIdentifier = try await admin.expect(
                .ok, .get, "resource-servers/\(ManagementSession.segment(Self.identifier))")
            #expect(byIdentifier["id"] == .string(id))
            let patched = try await admin.expect(
                .ok, .patch, "resource-servers/\(id)", json: ["token_lifetime": nil, "name": "Bank API"])
            #expect(patched["token_lifetime"] == 86400)
            #expect(patched["name"] == "Bank API")
            #expect(patched["identifier"] == .string(Self.identifier))
            try await admin.expectError(
                400, "invalid_body", .patch, "resource-servers/\(id)", json: ["identifier": "https://other/"])

            let listed = try await admin.expect(.ok, .get, "resource-servers?include_totals=true")
            #expect(listed["total"] == 2)
            #expect(listed["resource_servers"]?.strings("identifier").contains(Self.identifier) == true)

            let deleted = try await admin.call(
                .delete, "resource-servers/\(ManagementSession.segment(Self.identifier))")
            #expect(deleted.status == .noContent)
            try await admin.expectError(404, "inexistent_resource_server", .get, "resource-servers/\(id)")
        }
    }

    @Test func theSystemAPICannotBeChangedOrDeleted() async throws {
        let warden = try await TestWarden.make()
        try await warden.management { admin in
            let path = "resource-servers/\(ManagementSession.segment(ManagementSession.audience))"
            let system = try await admin.expect(.ok, .get, path)
            #expect(system["is_system"] == true)
            try await admin.expectError(403, "operation_not_allowed", .patch, path, json: ["name": "Mine"])
            try await admin.expectError(403, "operation_not_allowed", .delete, path)
            let id = try #require(system["id"]?.stringValue)
            try await admin.expectError(403, "operation_not_allowed", .delete, "resource-servers/\(id)")
        }
    }

    @Test func aDuplicateIdentifierIs409() async throws {
        let warden = try await TestWarden.make()
        try await warden.management { admin in
            try await admin.expect(.created, .post, "resource-servers", json: ["identifier": .string(Self.identifier)])
            try await admin.expectError(
                409, "conflict", .post, "resource-servers", json: ["identifier": .string(Self.identifier)])
        }
    }

    @Test(arguments: [
        (#"{"token_lifetime": 0}"#, "token_lifetime"),
        (#"{"token_lifetime": 2592001}"#, "token_lifetime"),
        (#"{"signing_alg": "HS256"}"#, "signing_alg"),
        (#"{"scopes": [{"value": "a b"}]}"#, "scopes[0].value"),
        (#"{"scopes": [{"value": "a", "tag": "x"}]}"#, "scopes[0].tag"),
        (#"{"authorization_details": [{"kind": "x"}]}"#, "authorization_details[0].kind"),
        (#"{"is_system": true}"#, "is_system"),
        (#"{"enforce_policies": 1}"#, "enforce_policies"),
    ])
    func invalidBodiesAre400(body: String, property: String) async throws {
        let warden = try await TestWarden.make()
        try await warden.management { admin in
            var members = try JSONDecoder().decode(JSONValue.self, from: Data(body.utf8)).objectValue ?? [:]
            members["identifier"] = .string(Self.identifier)
            let message = try await admin.expectError(
                400, "invalid_body", .post, "resource-servers", json: .object(members))
            #expect(message.contains(property), "\(message)")
        }
    }

    @Test func aPS256APIGetsAKeyAndSignsWithIt() async throws {
        let warden = try await TestWarden.make()
        try await warden.management { admin in
            try await admin.expect(
                .created, .post, "resource-servers",
                json: ["identifier": .string(Self.identifier), "signing_alg": "PS256", "scopes": [["value": "read"]]])
            let keys = try await admin.expect(.ok, .get, "keys/signing")
            #expect(keys.strings("alg").contains("PS256"))
        }
    }
}
