import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
import WardenCore
import WardenServer
import WardenTesting
import WardenWire

/// What every Management API endpoint shares (SPEC §9, §11): the Bearer token, scopes, body validation and
/// the body size limit, each answered in the Management error shape.
@Suite("Management API: authentication, scopes and bodies")
struct ManagementAuthTests {
    @Test func missingOrMalformedTokenIs401() async throws {
        let warden = try await TestWarden.make()
        try await warden.test { http in
            let none = try await http.execute(uri: "/api/v2/clients", method: .get)
            expectError(none, status: .init(code: 401), code: "invalid_token", shape: .management)
            let garbage = ManagementSession(http: http, token: "not.a.jwt")
            try await garbage.expectError(401, "invalid_token", .get, "clients")
            let basic = try await http.execute(
                uri: "/api/v2/users", method: .get, headers: [.authorization: "Basic YTpi"])
            expectError(basic, status: .init(code: 401), code: "invalid_token", shape: .management)
        }
    }

    @Test func tamperedAndExpiredTokensAre401() async throws {
        let warden = try await TestWarden.make()
        try await warden.test { http in
            let session = try await ManagementSession.make(warden, http)
            var parts = session.token.split(separator: ".").map(String.init)
            parts[2] = String(parts[2].reversed())
            try await ManagementSession(http: http, token: parts.joined(separator: "."))
                .expectError(401, "invalid_token", .get, "clients")
            warden.clock.advance(by: 86_400 * 2)
            try await session.expectError(401, "invalid_token", .get, "clients")
        }
    }

    @Test func aTokenWithoutTheScopeIs403InsufficientScope() async throws {
        let warden = try await TestWarden.make()
        try await warden.management { admin in
            let reader = try await admin.restricted(to: ["read:clients"])
            try await reader.expect(.ok, .get, "clients")
            let message = try await reader.expectError(403, "insufficient_scope", .post, "clients", json: ["name": "x"])
            #expect(message.contains("create:clients"))
            try await reader.expectError(403, "insufficient_scope", .get, "users")
            try await reader.expectError(403, "insufficient_scope", .post, "keys/signing/rotate")
            try await reader.expectError(403, "insufficient_scope", .get, "logs")
        }
    }

    @Test func unknownPropertyIs400NamingIt() async throws {
        let warden = try await TestWarden.make()
        try await warden.management { admin in
            let message = try await admin.expectError(
                400, "invalid_body", .post, "clients", json: ["name": "x", "colour": "blue"])
            #expect(message.contains("colour"))
            let nested = try await admin.expectError(
                400, "invalid_body", .post, "clients",
                json: ["name": "x", "session_transfer": ["can_create_session_transfer_token": true, "extra": 1]])
            #expect(nested.contains("session_transfer.extra"))
        }
    }

    /// Not a JSON object (RFC 8259), a trailing comma included: the reference platform's parser refuses it too.
    @Test(arguments: ["{", "[]", "\"text\"", "{\"name\": }", "", "{\"name\": \"r\",}"])
    func malformedBodyIs400(body: String) async throws {
        let warden = try await TestWarden.make()
        try await warden.management { admin in
            try await admin.expectError(400, "invalid_body", .post, "roles", raw: body)
        }
    }

    /// Text that is not JSON: the message says what is wrong and where (RFC 8259), so the caller can find it.
    @Test func malformedBodyNamesTheFault() async throws {
        let warden = try await TestWarden.make()
        try await warden.management { admin in
            let message = try await admin.expectError(
                400, "invalid_body", .post, "roles", raw: #"{"name": "r" "description": "d"}"#)
            #expect(message.contains("expected ',' or '}' in an object (at byte 13)"), "\(message)")
        }
    }

    @Test func oversizedBodyIs413() async throws {
        let warden = try await TestWarden.make()
        try await warden.management { admin in
            let big = JSONValue.object(["name": .string(String(repeating: "a", count: 70 * 1024))])
            try await admin.expectError(413, "payload_too_large", .post, "clients", json: big)
        }
    }
}
