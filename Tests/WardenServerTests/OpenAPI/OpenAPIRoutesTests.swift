import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import NIOFoundationCompat
import Testing
import WardenCore
import WardenTesting
import WardenWire

@testable import WardenServer

/// The OpenAPI document (`ManagementAPI/openapi.json`, SPEC §9) held against the router: every route is
/// documented (or is one of the few pages listed below, with why), every documented operation is a route, and
/// every Management operation asks for exactly the scope its `security` names. A route added without its
/// documentation, or documentation left behind by a removed route, fails here in seconds; the live check of
/// response bodies stays in tests/interop/test_openapi.py.
@Suite("OpenAPI document against the router")
struct OpenAPIRoutesTests {
    /// Routes outside the document: not JSON APIs.
    static let undocumented: [(prefix: String, reason: String)] = [
        ("/", "the home page (HTML): what this server is, with links to discovery"),
        ("/authorize", "a browser redirect to the hosted login (RFC 6749 §4.1.1), not JSON"),
        ("/u/", "hosted HTML pages (login, consent, approval, enrolment ticket)"),
        ("/demo", "the demo tenant's HTML callback page"),
        ("/admin", "the admin console's HTML pages and its sign-in redirects (SPEC §14)"),
        ("/oidc/logout", "a browser redirect or an HTML page (RP-Initiated Logout)"),
        ("/login/callback", "where upstream identity providers answer: a redirect or an HTML page (SPEC §15)"),
        ("/metrics", "Prometheus text exposition, not JSON"),
        ("/appliance-mfa/api/device-accounts/{}/stream", "the device stream: a WebSocket upgrade (SPEC §7.5)"),
    ]

    struct Operation: Hashable, CustomStringConvertible {
        var method: String
        var path: String
        var description: String { "\(method) \(path)" }
    }

    /// `/api/v2/clients/{id}` and `/api/v2/clients/:id` both become `/api/v2/clients/{}`.
    static func normalized(_ path: String) -> String {
        "/"
            + path.split(separator: "/").map { part in
                part.hasPrefix("{") || part.hasPrefix(":") ? "{}" : String(part)
            }.joined(separator: "/")
    }

    /// Each documented operation and the scopes of its `bearerAuth` security requirement (empty when none).
    static func documented() throws -> [Operation: [String]] {
        let document = try JSONDecoder().decode(JSONValue.self, from: Data(OpenAPIDocument.json.utf8))
        var operations: [Operation: [String]] = [:]
        for (path, item) in try #require(document["paths"]?.objectValue) {
            for (method, operation) in try #require(item.objectValue)
            where ["get", "put", "post", "patch", "delete"].contains(method) {
                let scopes = operation["security"]?.arrayValue?.compactMap { $0["bearerAuth"]?.arrayValue }
                    .flatMap { $0.compactMap(\.stringValue) }
                operations[Operation(method: method.uppercased(), path: normalized(path))] = scopes ?? []
            }
        }
        return operations
    }

    static func routes(of warden: TestWarden) -> Set<Operation> {
        Set(
            buildRouter(runtime: warden.runtime).routes.map {
                Operation(method: $0.method.rawValue, path: normalized("\($0.path)"))
            })
    }

    @Test func everyRouteIsDocumentedAndEveryDocumentedOperationIsARoute() async throws {
        // Every optional route on: `/oidc/register` exists only with registration enabled (SPEC §13).
        let warden = try await TestWarden.make { $0.registration = .open }
        let routes = Self.routes(of: warden)
        let documented = Set(try Self.documented().keys)
        let missing = routes.subtracting(documented).filter { route in
            !Self.undocumented.contains {
                route.path == $0.prefix || ($0.prefix != "/" && route.path.hasPrefix($0.prefix))
            }
        }
        #expect(
            missing.isEmpty, "routes without documentation in openapi.json: \(missing.sorted { "\($0)" < "\($1)" })")
        let stale = documented.subtracting(routes)
        #expect(stale.isEmpty, "documented operations without a route: \(stale.sorted { "\($0)" < "\($1)" })")
        #expect(routes.count > 60)
    }

    @Test func everyManagementOperationNeedsTheScopeItsSecurityNames() async throws {
        let warden = try await TestWarden.make()
        let operations = try Self.documented().filter { $0.key.path.hasPrefix("/api/v2/") && !$0.value.isEmpty }
        #expect(operations.count > 40)
        try await warden.test { http in
            var tokens: [String: String] = [:]
            for (operation, scopes) in operations {
                let needed = try #require(scopes.first)
                #expect(scopes.count == 1, "\(operation) names \(scopes)")
                let held = needed == "read:logs" ? "read:users" : "read:logs"
                if tokens[held] == nil { tokens[held] = try await Self.token(warden, http, scope: held) }
                let uri = operation.path.replacingOccurrences(of: "{}", with: "nothing")
                let response = try await http.execute(
                    uri: uri, method: HTTPRequest.Method(operation.method)!,
                    headers: [.authorization: "Bearer \(tokens[held]!)", .contentType: "application/json"],
                    body: ByteBuffer(string: "{}"))
                let body = try JSONDecoder().decode(JSONValue.self, from: Data(buffer: response.body))
                #expect(response.status == .forbidden, "\(operation): \(response.status)")
                #expect(
                    body["message"]?.stringValue == "Insufficient scope, expected any of: \(needed)",
                    "\(operation) documents \(needed): \(body)")
            }
        }
    }

    /// A Management token holding `scope` alone (client credentials with a narrowed scope).
    static func token(_ warden: TestWarden, _ http: any TestClientProtocol, scope: String) async throws -> String {
        let audience = warden.runtime.configuration.managementAudience
        let form = [
            ("grant_type", "client_credentials"), ("client_id", warden.managementClientID),
            ("client_secret", warden.managementClientSecret), ("audience", audience), ("scope", scope),
        ].map { "\($0)=\($1.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)" }.joined(separator: "&")
        let response = try await http.execute(
            uri: "/oauth/token", method: .post, headers: [.contentType: "application/x-www-form-urlencoded"],
            body: ByteBuffer(string: form))
        let body = try JSONDecoder().decode(JSONValue.self, from: Data(buffer: response.body))
        return try #require(body["access_token"]?.stringValue, "\(body)")
    }
}
