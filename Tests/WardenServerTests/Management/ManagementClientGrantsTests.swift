import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import WardenCore
import WardenServer
import WardenTesting
import WardenWire

/// `/api/v2/client-grants` (SPEC §9): changes reach the token endpoint at once.
@Suite("Management API: client grants")
struct ManagementClientGrantsTests {
    @Test func aGrantEnablesClientCredentialsUntilItIsDeleted() async throws {
        let warden = try await TestWarden.make()
        let api = try await warden.makeAPI()
        let client = try await warden.makeClient()
        try await warden.management { admin in
            let token = {
                try await admin.http.postForm(
                    "/oauth/token",
                    [
                        ("grant_type", "client_credentials"), ("client_id", client.id),
                        ("client_secret", client.secret), ("audience", api.identifier),
                    ])
            }
            #expect(try await token().status == .forbidden)
            let grant = try await admin.expect(
                .created, .post, "client-grants",
                json: ["client_id": .string(client.id), "audience": .string(api.identifier), "scope": ["read:things"]])
            let id = try #require(grant["id"]?.stringValue)
            #expect(id.hasPrefix("cgr_"))
            #expect(try await token().json["scope"] == "read:things")

            let patched = try await admin.expect(
                .ok, .patch, "client-grants/\(id)", json: ["scope": ["read:things", "write:things"]])
            #expect(patched["scope"] == ["read:things", "write:things"])
            #expect(try await token().json["scope"] == "read:things write:things")

            #expect(try await admin.call(.delete, "client-grants/\(id)").status == .noContent)
            #expect(try await token().status == .forbidden)
            try await admin.expectError(404, "inexistent_client_grant", .delete, "client-grants/\(id)")
            try await admin.expectError(
                404, "inexistent_client_grant", .patch, "client-grants/\(id)", json: ["scope": []])
        }
    }

    @Test func duplicatesAndUndefinedReferencesAreRefused() async throws {
        let warden = try await TestWarden.make()
        let api = try await warden.makeAPI()
        let client = try await warden.makeClient()
        try await warden.management { admin in
            let body: JSONValue = ["client_id": .string(client.id), "audience": .string(api.identifier), "scope": []]
            try await admin.expect(.created, .post, "client-grants", json: body)
            try await admin.expectError(409, "conflict", .post, "client-grants", json: body)
            let unknownScope = try await admin.expectError(
                400, "invalid_body", .post, "client-grants",
                json: ["client_id": .string(client.id), "audience": .string(api.identifier), "scope": ["fly"]])
            #expect(unknownScope.contains("fly"))
            try await admin.expectError(
                400, "invalid_body", .post, "client-grants",
                json: ["client_id": "ghost", "audience": .string(api.identifier), "scope": []])
            try await admin.expectError(
                400, "invalid_body", .post, "client-grants",
                json: ["client_id": .string(client.id), "audience": "https://nowhere/", "scope": []])
            try await admin.expectError(
                400, "invalid_body", .post, "client-grants",
                json: ["client_id": .string(client.id), "audience": .string(api.identifier)])
        }
    }

    @Test func listFiltersAndPagesWithFromAndTake() async throws {
        let warden = try await TestWarden.make()
        let api = try await warden.makeAPI()
        var made: [String] = []
        for _ in 0..<3 {
            let client = try await warden.makeClient()
            try await warden.grant(clientID: client.id, audience: api.identifier, scope: ["read:things"])
            made.append(client.id)
        }
        let clients = made
        try await warden.management { admin in
            let all = try await admin.expect(.ok, .get, "client-grants")
            #expect(all.arrayValue?.count == 4)  // with the management client's grant
            let forAPI = try await admin.expect(
                .ok, .get, "client-grants?audience=\(ManagementSession.segment(api.identifier))&include_totals=true")
            #expect(forAPI["total"] == 3)
            let forClient = try await admin.expect(.ok, .get, "client-grants?client_id=\(clients[1])")
            #expect(forClient.strings("client_id") == [clients[1]])

            let first = try await admin.expect(.ok, .get, "client-grants?take=3&include_totals=true")
            #expect(first["client_grants"]?.arrayValue?.count == 3)
            let next = try #require(first["next"]?.stringValue)
            let second = try await admin.expect(.ok, .get, "client-grants?take=3&from=\(next)&include_totals=true")
            #expect(second["client_grants"]?.arrayValue?.count == 1)
            #expect(second["next"] == nil)
        }
    }
}
