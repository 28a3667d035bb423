import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
import WardenCore
import WardenTesting
import WardenWire

@testable import WardenServer

/// OIDC connections read the upstream's discovery document on create and PATCH (SPEC §15 `oidc`): endpoints filled
/// from it, a document that cannot be read refused, one issuer per connection.
@Suite("Connections: OIDC discovery")
struct ConnectionDiscoveryTests {
    /// An upstream on a loopback port: `/idp` publishes a good document (its issuer `http://host/idp`), the rest fail.
    static func upstream() -> some ApplicationProtocol {
        let router = Router()
        router.get("idp/.well-known/openid-configuration") { request, _ -> Response in
            let base = "http://\(request.head.authority ?? "")/idp"
            return Self.json([
                "issuer": .string(base), "authorization_endpoint": .string(base + "/authorize"),
                "token_endpoint": .string(base + "/token"), "userinfo_endpoint": .string(base + "/userinfo"),
                "jwks_uri": .string(base + "/jwks"), "code_challenge_methods_supported": ["S256"],
            ])
        }
        router.get("missing") { _, _ in Response(status: .notFound) }
        router.get("text") { _, _ in Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: "<html>"))) }
        router.get("nojwks") { _, _ in Self.json(["issuer": "http://x/", "authorization_endpoint": "http://x/a"]) }
        router.get("redirect") { _, _ in
            Response(status: .found, headers: [.location: "http://127.0.0.1:1/idp/.well-known/openid-configuration"])
        }
        router.get("large") { _, _ in Self.json(["padding": .string(String(repeating: "x", count: 200_000))]) }
        return Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
    }

    static func json(_ object: [String: JSONValue]) -> Response {
        Response(
            status: .ok, headers: [.contentType: "application/json"],
            body: .init(byteBuffer: ByteBuffer(string: JSONValue.object(object).serialized)))
    }

    static func oidc(_ name: String, _ options: [String: JSONValue]) -> JSONValue {
        var all: [String: JSONValue] = ["client_id": "warden", "client_secret": "upstream-secret"]
        all.merge(options) { $1 }
        return ["name": .string(name), "strategy": "oidc", "options": .object(all)]
    }

    @Test func theDocumentFillsTheEndpointsAndAnIssuerBelongsToOneConnection() async throws {
        try await Self.upstream().test(.live) { server in
            let base = "http://127.0.0.1:\(try #require(server.port))/idp"
            let warden = try await TestWarden.make()
            try await warden.management { admin in
                let created = try await admin.expect(
                    .created, .post, "connections",
                    json: Self.oidc("acme", ["discovery_url": .string(base + "/.well-known/openid-configuration")]))
                let options = try #require(created["options"])
                #expect(options["issuer"] == .string(base))
                #expect(options["token_endpoint"] == .string(base + "/token"))
                #expect(options["jwks_uri"] == .string(base + "/jwks"))
                #expect(options["oidc_metadata"]?["code_challenge_methods_supported"] == ["S256"])
                #expect(options["schema_version"] == "oidc-V4")
                #expect(options["client_secret"] == nil)

                let message = try await admin.expectError(
                    409, "conflict", .post, "connections", json: Self.oidc("acme-2", ["issuer": .string(base)]))
                #expect(message.contains(base))
                let id = try #require(created["id"]?.stringValue)
                let patched = try await admin.expect(
                    .ok, .patch, "connections/\(id)",
                    json: ["options": ["client_id": "warden", "issuer": .string(base), "scope": "openid email"]])
                #expect(patched["options"]?["scope"] == "openid email")
                #expect(patched["options"]?["userinfo_endpoint"] == .string(base + "/userinfo"))
                let stored = try #require(try await warden.runtime.store.connection(id: id))
                #expect(stored.options["client_secret"] == "upstream-secret")
            }
        }
    }

    @Test(
        "A document that cannot be read is 400 invalid_body naming the option",
        arguments: [
            ("/missing", "discovery_url"), ("/text", "discovery_url"), ("/nojwks", "discovery_url"),
            ("/redirect", "discovery_url"), ("/large", "discovery_url"),
        ])
    func unreadableDocuments(path: String, option: String) async throws {
        try await Self.upstream().test(.live) { server in
            let url = "http://127.0.0.1:\(try #require(server.port))\(path)"
            let warden = try await TestWarden.make()
            try await warden.management { admin in
                let message = try await admin.expectError(
                    400, "invalid_body", .post, "connections",
                    json: Self.oidc("acme", ["discovery_url": .string(url)]))
                #expect(message.contains(option), "\(message)")
            }
        }
    }

    @Test func anIssuerTheDocumentDoesNotNameAndNonLoopbackHTTPAreRefused() async throws {
        try await Self.upstream().test(.live) { server in
            let port = try #require(server.port)
            let warden = try await TestWarden.make()
            try await warden.management { admin in
                let mismatch = try await admin.expectError(
                    400, "invalid_body", .post, "connections",
                    json: Self.oidc(
                        "acme",
                        [
                            "issuer": "https://elsewhere.example/",
                            "discovery_url": .string("http://127.0.0.1:\(port)/idp/.well-known/openid-configuration"),
                        ]))
                #expect(mismatch.contains("options.issuer"))
                let plain = try await admin.expectError(
                    400, "invalid_body", .post, "connections",
                    json: Self.oidc("acme", ["issuer": "http://idp.example.com/"]))
                #expect(plain.contains("https"), "\(plain)")
                let none = try await admin.expectError(
                    400, "invalid_body", .post, "connections", json: Self.oidc("acme", [:]))
                #expect(none.contains("options.discovery_url"))
            }
        }
    }
}
