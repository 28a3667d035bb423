import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import WardenCore
import WardenServer
import WardenTesting
import WardenWire

/// `/api/v2/users`, `/api/v2/users-by-email` (SPEC §9).
@Suite("Management API: users")
struct ManagementUsersTests {
    static let connection: JSONValue = "Username-Password-Authentication"

    @Test func createReadUpdateDelete() async throws {
        let warden = try await TestWarden.make()
        try await warden.management { admin in
            let created = try await admin.expect(
                .created, .post, "users",
                json: [
                    "email": "Alice@Example.com", "password": "Correct horse battery staple", "name": "Alice",
                    "connection": Self.connection, "user_metadata": ["theme": "dark", "lang": "en"],
                ])
            let id = try #require(created["user_id"]?.stringValue)
            #expect(id.wholeMatch(of: /auth0\|[0-9a-f]{24}/) != nil)
            #expect(created["email"] == "alice@example.com")
            #expect(created["email_verified"] == false)
            #expect(created["blocked"] == false)
            #expect(created["logins_count"] == 0)
            #expect(created["password"] == nil)
            #expect(created["created_at"]?.stringValue?.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/) != nil)
            let identity = created["identities"]?.arrayValue?.first
            #expect(identity?["connection"] == Self.connection)
            #expect(identity?["provider"] == "auth0")
            #expect(identity?["isSocial"] == false)
            #expect(identity?["user_id"] == .string(String(id.dropFirst(6))))
            let hash = try #require(try await warden.runtime.store.user(id: id)?.passwordHash)
            #expect(hash.hasPrefix("$2"))
            #expect(!hash.contains("horse"))

            let path = "users/\(ManagementSession.segment(id))"
            let patched = try await admin.expect(
                .ok, .patch, path,
                json: ["user_metadata": ["lang": nil, "tz": "UTC"], "blocked": true, "password": "Another passphrase"])
            #expect(patched["user_metadata"] == ["theme": "dark", "tz": "UTC"])
            #expect(patched["blocked"] == true)
            #expect(patched["name"] == "Alice")
            let newHash = try #require(try await warden.runtime.store.user(id: id)?.passwordHash)
            #expect(newHash.hasPrefix("$2") && newHash != hash)
            let cleared = try await admin.expect(.ok, .patch, path, json: ["user_metadata": [:], "name": nil])
            #expect(cleared["user_metadata"] == [:])
            #expect(cleared["name"] == nil)

            #expect(try await admin.call(.delete, path).status == .noContent)
            try await admin.expectError(404, "inexistent_user", .get, path)
            try await admin.expectError(404, "inexistent_user", .patch, path, json: ["blocked": false])
        }
    }

    @Test func givenUserIDsGetTheProviderPrefix() async throws {
        let warden = try await TestWarden.make()
        try await warden.management { admin in
            let plain = try await admin.expect(
                .created, .post, "users", json: ["email": "a@example.com", "user_id": "abc123"])
            #expect(plain["user_id"] == "auth0|abc123")
            let prefixed = try await admin.expect(
                .created, .post, "users", json: ["email": "b@example.com", "user_id": "auth0|xyz"])
            #expect(prefixed["user_id"] == "auth0|xyz")
            try await admin.expectError(
                409, "conflict", .post, "users", json: ["email": "c@example.com", "user_id": "abc123"])
        }
    }

    @Test func emailIsUniqueIgnoringCase() async throws {
        let warden = try await TestWarden.make()
        try await warden.management { admin in
            try await admin.expect(.created, .post, "users", json: ["email": "bob@example.com"])
            try await admin.expectError(409, "conflict", .post, "users", json: ["email": "BOB@example.com"])
            let other = try await admin.expect(.created, .post, "users", json: ["email": "carol@example.com"])
            let path = "users/\(ManagementSession.segment(other["user_id"]?.stringValue ?? ""))"
            try await admin.expectError(409, "conflict", .patch, path, json: ["email": "Bob@Example.com"])
        }
    }

    /// SPEC §11: addresses are checked on create and on PATCH (`format: email`), 400 `invalid_body`.
    @Test(arguments: ["0@0.com*", "0@.", "a@example", "a..b@example.com", "a b@example.com"])
    func malformedAddressesAreRefusedOnCreateAndUpdate(email: String) async throws {
        let warden = try await TestWarden.make()
        try await warden.management { admin in
            let message = try await admin.expectError(
                400, "invalid_body", .post, "users", json: ["email": .string(email)])
            #expect(message.contains("email"), "\(message)")
            let address = "valid-\(RandomToken.identifier(prefix: "", length: 8))@example.com"
            let user = try await admin.expect(.created, .post, "users", json: ["email": .string(address)])
            let path = "users/\(ManagementSession.segment(user["user_id"]?.stringValue ?? ""))"
            try await admin.expectError(400, "invalid_body", .patch, path, json: ["email": .string(email)])
            #expect(try await admin.expect(.ok, .get, path)["email"] == .string(address.lowercased()))
        }
    }

    /// SPEC §11: a search too complex to run (here 996 terms in 1,991 characters) is 400 `invalid_query_string`,
    /// never a 500.
    @Test func aSearchOfTooManyTermsIs400() async throws {
        let warden = try await TestWarden.make()
        try await warden.management { admin in
            let q = Array(repeating: "a", count: 996).joined(separator: " ")
            #expect(q.count == 1991)
            try await admin.expectError(400, "invalid_query_string", .get, "users?q=\(formEncode(q))&search_engine=v3")
            try await admin.expect(.ok, .get, "users?q=a&search_engine=v3")
        }
    }

    @Test(arguments: [
        (#"{"email": "x@example.com", "connection": "google-oauth2"}"#, "connection"),
        (#"{"connection": "Username-Password-Authentication"}"#, "email"),
        (#"{"email": "not-an-address"}"#, "email"),
        (#"{"email": "x@example.com", "password": "short"}"#, "PasswordStrengthError"),
        (#"{"email": "x@example.com", "user_metadata": "dark"}"#, "user_metadata"),
        (#"{"email": "x@example.com", "blocked": "no"}"#, "blocked"),
        (#"{"email": "x@example.com", "username": "x"}"#, "username"),
    ])
    func invalidBodiesAre400(body: String, property: String) async throws {
        let warden = try await TestWarden.make()
        try await warden.management { admin in
            let message = try await admin.expectError(400, "invalid_body", .post, "users", raw: body)
            #expect(message.contains(property), "\(message)")
        }
    }

    @Test func searchWithQSortAndTotals() async throws {
        let warden = try await TestWarden.make()
        try await warden.management { admin in
            for (email, name, plan) in [
                ("ann@example.com", "Ann Lee", "gold"), ("ben@example.com", "Ben Lee", "free"),
                ("cat@corp.example", "Cat Noir", "gold"),
            ] {
                try await admin.expect(
                    .created, .post, "users",
                    json: ["email": .string(email), "name": .string(name), "app_metadata": ["plan": .string(plan)]])
            }
            let gold = try await admin.expect(
                .ok, .get, "users?q=app_metadata.plan%3Agold&search_engine=v3&sort=email%3A-1&include_totals=true")
            #expect(gold["total"] == 2)
            #expect(gold["users"]?.strings("email") == ["cat@corp.example", "ann@example.com"])
            let phrase = try await admin.expect(.ok, .get, "users?q=name%3A%22ben+lee%22+OR+email%3Aann*")
            #expect(Set(phrase.strings("email")) == ["ben@example.com", "ann@example.com"])
            let page = try await admin.expect(.ok, .get, "users?per_page=2&page=1&sort=email%3A1")
            #expect(page.strings("email") == ["cat@corp.example"])
            let past = try await admin.expect(.ok, .get, "users?per_page=2&page=5")
            #expect(past == [])
            let message = try await admin.expectError(400, "invalid_query_string", .get, "users?q=name%3A(ann")
            #expect(message.contains("position"))
            try await admin.expectError(400, "invalid_query_string", .get, "users?sort=password%3A1")
            try await admin.expectError(400, "invalid_query_string", .get, "users?search_engine=v1")
        }
    }

    @Test func usersByEmail() async throws {
        let warden = try await TestWarden.make()
        try await warden.management { admin in
            try await admin.expect(.created, .post, "users", json: ["email": "dan@example.com"])
            let found = try await admin.expect(.ok, .get, "users-by-email?email=DAN%40example.com")
            #expect(found.strings("email") == ["dan@example.com"])
            #expect(try await admin.expect(.ok, .get, "users-by-email?email=nobody%40example.com") == [])
            try await admin.expectError(400, "invalid_query_string", .get, "users-by-email")
            let reader = try await admin.restricted(to: ["read:clients"])
            try await reader.expectError(403, "insufficient_scope", .get, "users-by-email?email=dan%40example.com")
        }
    }
}
