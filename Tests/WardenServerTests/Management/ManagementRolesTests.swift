import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import WardenCore
import WardenServer
import WardenTesting
import WardenWire

/// `/api/v2/roles`, `/roles/{id}/permissions`, `/users/{id}/roles` (SPEC §9, RBAC).
@Suite("Management API: roles")
struct ManagementRolesTests {
    @Test func rolesCRUD() async throws {
        let warden = try await TestWarden.make()
        try await warden.management { admin in
            let created = try await admin.expect(
                .created, .post, "roles", json: ["name": "Teller", "description": "Front desk"])
            let id = try #require(created["id"]?.stringValue)
            #expect(id.hasPrefix("rol_"))
            try await admin.expectError(409, "conflict", .post, "roles", json: ["name": "Teller"])
            try await admin.expectError(400, "invalid_body", .post, "roles", json: ["description": "no name"])
            let patched = try await admin.expect(.ok, .patch, "roles/\(id)", json: ["description": nil])
            #expect(patched["name"] == "Teller")
            #expect(patched["description"] == nil)
            try await admin.expect(.created, .post, "roles", json: ["name": "Auditor"])
            let filtered = try await admin.expect(.ok, .get, "roles?name_filter=tell&include_totals=true")
            #expect(filtered["total"] == 1)
            #expect(filtered["roles"]?.strings("name") == ["Teller"])
            // SPEC §14: bootstrap makes the console's role too.
            #expect(
                try await admin.expect(.ok, .get, "roles").strings("name") == ["Auditor", "Teller", "warden:admin"])
            #expect(try await admin.call(.delete, "roles/\(id)").status == .noContent)
            try await admin.expectError(404, "inexistent_role", .get, "roles/\(id)")
            try await admin.expectError(404, "inexistent_role", .get, "roles/\(id)/permissions")
        }
    }

    @Test func permissionsAndUserRoles() async throws {
        let warden = try await TestWarden.make()
        let api = try await warden.makeAPI(scopes: ["read:balance", "transfer:funds"])
        try await warden.management { admin in
            let role = try #require(
                try await admin.expect(.created, .post, "roles", json: ["name": "Payer"])["id"]?.stringValue)
            let permission: JSONValue = [
                "resource_server_identifier": .string(api.identifier), "permission_name": "transfer:funds",
            ]
            let added = try await admin.call(.post, "roles/\(role)/permissions", json: ["permissions": [permission]])
            #expect(added.status == .created)
            let listed = try await admin.expect(.ok, .get, "roles/\(role)/permissions?include_totals=true")
            #expect(listed["total"] == 1)
            #expect(listed["permissions"]?.strings("permission_name") == ["transfer:funds"])
            #expect(listed["permissions"]?.strings("resource_server_name") == [api.name])
            let undefined = try await admin.expectError(
                400, "invalid_body", .post, "roles/\(role)/permissions",
                json: [
                    "permissions": [["resource_server_identifier": .string(api.identifier), "permission_name": "fly"]]
                ])
            #expect(undefined.contains("fly"))
            try await admin.expectError(
                400, "invalid_body", .post, "roles/\(role)/permissions", json: ["permissions": []])

            let user = try #require(
                try await admin.expect(.created, .post, "users", json: ["email": "payer@example.com"])["user_id"]?
                    .stringValue)
            let path = "users/\(ManagementSession.segment(user))/roles"
            #expect(try await admin.call(.post, path, json: ["roles": [.string(role)]]).status == .created)
            #expect(try await admin.expect(.ok, .get, path).strings("id") == [role])
            #expect(
                try await warden.runtime.store.permissionNames(ofUser: user, resourceServer: api.identifier)
                    == ["transfer:funds"])
            try await admin.expectError(400, "invalid_body", .post, path, json: ["roles": ["rol_missing"]])
            try await admin.expectError(
                404, "inexistent_user", .post, "users/auth0%7Cnobody/roles", json: ["roles": [.string(role)]])
            let reader = try await admin.restricted(to: ["read:users", "create:roles"])
            try await reader.expect(.ok, .get, path)
            try await reader.expectError(403, "insufficient_scope", .delete, path, json: ["roles": [.string(role)]])
            try await reader.expectError(
                403, "insufficient_scope", .post, "roles/\(role)/permissions", json: ["permissions": [permission]])

            #expect(try await admin.call(.delete, path, json: ["roles": [.string(role)]]).status == .noContent)
            #expect(try await admin.expect(.ok, .get, path) == [])
            let removed = try await admin.call(
                .delete, "roles/\(role)/permissions", json: ["permissions": [permission]])
            #expect(removed.status == .noContent)
            #expect(try await admin.expect(.ok, .get, "roles/\(role)/permissions") == [])
        }
    }
}
