import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
import WardenCore
import WardenServer
import WardenTesting
import WardenWire

/// `/api/v2/post-login-rules` (SPEC §8 "Post-login rules", §9).
@Suite("Management API: post-login rules")
struct PostLoginRulesManagementTests {
    static let condition: JSONValue = #"event.user.email == "ann@example.com""#

    @Test func createReadUpdateDelete() async throws {
        let warden = try await TestWarden.make()
        try await warden.management { admin in
            let created = try await admin.expect(
                .created, .post, "post-login-rules",
                json: ["name": "No Ann", "condition": Self.condition, "deny_reason": "Ann may not sign in"])
            let id = try #require(created["id"]?.stringValue)
            #expect(id.hasPrefix("plr_"))
            #expect(
                created
                    == [
                        "id": .string(id), "name": "No Ann", "enabled": true, "order": 1, "condition": Self.condition,
                        "deny_reason": "Ann may not sign in", "action": "deny",
                    ])
            #expect(try await admin.expect(.ok, .get, "post-login-rules/\(id)") == created)

            let patched = try await admin.expect(
                .ok, .patch, "post-login-rules/\(id)",
                json: ["enabled": false, "order": 9, "condition": "exists(event.session_transfer_token)"])
            #expect(patched["enabled"] == false)
            #expect(patched["order"] == 9)
            #expect(patched["condition"] == "exists(event.session_transfer_token)")
            #expect(patched["name"] == "No Ann", "what the body leaves out is kept")
            #expect(try await admin.expect(.ok, .patch, "post-login-rules/\(id)", json: [:]) == patched)
            #expect(try await warden.runtime.store.postLoginRule(id: id)?.order == 9)

            #expect(try await admin.call(.delete, "post-login-rules/\(id)").status == .noContent)
            for method in [HTTPRequest.Method.get, .delete] {
                try await admin.expectError(404, "inexistent_post_login_rule", method, "post-login-rules/\(id)")
            }
            try await admin.expectError(
                404, "inexistent_post_login_rule", .patch, "post-login-rules/\(id)", json: ["name": "x"])
        }
    }

    @Test func listedByOrderAndAppendedLastByDefault() async throws {
        let warden = try await TestWarden.make()
        try await warden.management { admin in
            for (name, order) in [("b", 5), ("a", 2)] {
                try await admin.expect(
                    .created, .post, "post-login-rules",
                    json: [
                        "name": .string(name), "order": .number(Double(order)), "condition": "false",
                        "deny_reason": "no",
                    ])
            }
            let last = try await admin.expect(
                .created, .post, "post-login-rules", json: ["name": "c", "condition": "false", "deny_reason": "no"])
            #expect(last["order"] == 6, "after the highest order")
            #expect(try await admin.expect(.ok, .get, "post-login-rules").strings("name") == ["a", "b", "c"])
            let page = try await admin.expect(.ok, .get, "post-login-rules?per_page=2&page=1&include_totals=true")
            #expect(page["total"] == 3)
            #expect(page["start"] == 2)
            #expect(page["post_login_rules"]?.strings("name") == ["c"])
            try await admin.expectError(400, "invalid_query_string", .get, "post-login-rules?per_page=101")
        }
    }

    @Test func aConditionThatDoesNotParseIsRefusedNamingThePosition() async throws {
        let warden = try await TestWarden.make()
        try await warden.management { admin in
            let unclosed = try await admin.expectError(
                400, "invalid_body", .post, "post-login-rules",
                json: ["name": "x", "condition": #"(event.user.email == "x""#, "deny_reason": "no"])
            #expect(unclosed == "Payload validation error: 'expected ')' at position 25' on property condition.")
            let unknown = try await admin.expectError(
                400, "invalid_body", .post, "post-login-rules",
                json: ["name": "x", "condition": "event.user.nmae == 1", "deny_reason": "no"])
            #expect(unknown.contains("unknown path 'event.user.nmae' at position 1"))

            let rule = try await admin.expect(
                .created, .post, "post-login-rules", json: ["name": "x", "condition": "true", "deny_reason": "no"])
            let id = try #require(rule["id"]?.stringValue)
            let patched = try await admin.expectError(
                400, "invalid_body", .patch, "post-login-rules/\(id)", json: ["condition": "true &&"])
            #expect(patched.contains("at position 8"))
            #expect(try await warden.runtime.store.postLoginRule(id: id)?.condition == "true", "nothing changed")
        }
    }

    @Test func bodiesAreValidated() async throws {
        let warden = try await TestWarden.make()
        try await warden.management { admin in
            let valid: [String: JSONValue] = ["name": "x", "condition": "true", "deny_reason": "no"]
            let unknown = try await admin.expectError(
                400, "invalid_body", .post, "post-login-rules", json: .object(valid.merging(["script": "x"]) { $1 }))
            #expect(unknown.contains("script"))
            for missing in valid.keys {
                let message = try await admin.expectError(
                    400, "invalid_body", .post, "post-login-rules", json: .object(valid.filter { $0.key != missing }))
                #expect(message.contains(missing))
            }
            let wrong: [String: JSONValue] = [
                "enabled": "yes", "order": -1, "name": .string(String(repeating: "n", count: 1001)),
                "deny_reason": 3, "id": "plr_mine",
            ]
            for (key, value) in wrong {
                let message = try await admin.expectError(
                    400, "invalid_body", .post, "post-login-rules", json: .object(valid.merging([key: value]) { $1 }))
                #expect(message.contains(key))
            }
            let rule = try await admin.expect(.created, .post, "post-login-rules", json: .object(valid))
            let id = try #require(rule["id"]?.stringValue)
            for key in ["name", "enabled", "order", "condition", "deny_reason"] {
                let message = try await admin.expectError(
                    400, "invalid_body", .patch, "post-login-rules/\(id)", json: [key: nil])
                #expect(message.contains(key))
            }
            try await admin.expectError(400, "invalid_body", .post, "post-login-rules", raw: "{not json")
            try await admin.expectError(
                413, "payload_too_large", .post, "post-login-rules",
                json: .object(valid.merging(["name": .string(String(repeating: "x", count: 70_000))]) { $1 }))
        }
    }

    @Test func everyOperationNeedsItsScopeAndIsLogged() async throws {
        let warden = try await TestWarden.make()
        try await warden.management { admin in
            let reader = try await admin.restricted(to: ["read:post_login_rules"])
            let body: JSONValue = ["name": "x", "condition": "true", "deny_reason": "no"]
            try await reader.expect(.ok, .get, "post-login-rules")
            try await reader.expectError(403, "insufficient_scope", .post, "post-login-rules", json: body)
            let id = try #require(
                try await admin.expect(.created, .post, "post-login-rules", json: body)["id"]?.stringValue)
            try await reader.expect(.ok, .get, "post-login-rules/\(id)")
            try await reader.expectError(
                403, "insufficient_scope", .patch, "post-login-rules/\(id)", json: ["enabled": false])
            try await reader.expectError(403, "insufficient_scope", .delete, "post-login-rules/\(id)")
            let writer = try await admin.restricted(to: ["update:post_login_rules", "delete:post_login_rules"])
            try await writer.expectError(403, "insufficient_scope", .get, "post-login-rules/\(id)")
            try await writer.expect(.ok, .patch, "post-login-rules/\(id)", json: ["enabled": false])
            try await writer.expect(.noContent, .delete, "post-login-rules/\(id)")

            await warden.flushLogs()
            let logged = try await warden.runtime.store.searchLogs(
                LogFilter(terms: [:]), ascending: true, page: PageRequest(page: 0, perPage: 100)
            ).items.filter { $0.description?.hasSuffix("post-login rule") == true }
            let outcomes = logged.map { "\($0.type.rawValue) \($0.description ?? "")" }
            #expect(
                outcomes.sorted() == [
                    "fapi Create a post-login rule", "fapi Delete a post-login rule", "fapi Update a post-login rule",
                    "sapi Create a post-login rule", "sapi Delete a post-login rule", "sapi Update a post-login rule",
                ])
        }
    }
}
