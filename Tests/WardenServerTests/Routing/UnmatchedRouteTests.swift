import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
import WardenCore
import WardenServer
import WardenTesting
import WardenWire

/// SPEC §11: an unknown path answers 404 in its family's shape, a known path with a wrong method 405 with
/// `Allow`; `GET /` is a small page about the server.
@Suite("routing: unknown paths and wrong methods")
struct UnmatchedRouteTests {
    @Test(arguments: ["/oauth/nope", "/.well-known/nope", "/userinfo/extra", "/bc-authorize/x"])
    func anUnknownAPIPathIsAJSON404(path: String) async throws {
        let warden = try await TestWarden.make()
        try await warden.test { http in
            let response = try await http.execute(uri: path, method: .get)
            #expect(response.status == .notFound)
            #expect(response.headers[.contentType] == "application/json")
            #expect(response.json["error"] == "not_found")
            #expect(response.json["error_description"]?.stringValue?.isEmpty == false)
        }
    }

    @Test(arguments: ["/api/v2/nope", "/api/v2/users/u1/nope", "/appliance-mfa/api/nope"])
    func anUnknownManagementPathIsA404InTheManagementShape(path: String) async throws {
        let warden = try await TestWarden.make()
        try await warden.test { http in
            let response = try await http.execute(uri: path, method: .get)
            expectError(response, status: .init(code: 404), code: "not_found", shape: .management)
            #expect(response.json["error"] == "Not Found")
        }
    }

    @Test(arguments: ["/nope", "/u/nope", "/admin/nothing-here"])
    func anUnknownBrowserPathIsTheHTMLErrorPage(path: String) async throws {
        let warden = try await TestWarden.make()
        try await warden.test { http in
            let response = try await http.execute(uri: path, method: .get)
            #expect(response.status == .notFound)
            #expect(response.headers[.contentType]?.hasPrefix("text/html") == true)
            #expect(response.text.contains("Page not found"))
        }
    }

    @Test func aKnownPathWithAWrongMethodIs405WithAllow() async throws {
        let warden = try await TestWarden.make()
        try await warden.test { http in
            let token = try await http.execute(uri: "/oauth/token", method: .get)
            #expect(token.status == .methodNotAllowed)
            #expect(token.headers[.allow] == "POST")
            #expect(token.json["error"] == "method_not_allowed")

            let client = try await http.execute(uri: "/api/v2/clients/abc", method: .put)
            expectError(client, status: .init(code: 405), code: "method_not_allowed", shape: .management)
            #expect(client.json["error"] == "Method Not Allowed")
            #expect(client.headers[.allow] == "DELETE, GET, PATCH")

            let login = try await http.execute(uri: "/u/login", method: .delete)
            #expect(login.status == .methodNotAllowed)
            #expect(login.headers[.allow]?.contains("GET") == true)
            #expect(login.headers[.contentType]?.hasPrefix("text/html") == true)
        }
    }

    @Test func theRootIsAPageLinkingToDiscovery() async throws {
        let warden = try await TestWarden.make()
        try await warden.test { http in
            let response = try await http.execute(uri: "/", method: .get)
            #expect(response.status == .ok)
            #expect(response.headers[.contentType]?.hasPrefix("text/html") == true)
            #expect(response.text.contains("authorization server"))
            #expect(response.text.contains("href=\"http://127.0.0.1:8080/.well-known/openid-configuration\""))
            #expect(try await http.execute(uri: "/", method: .post).headers[.allow] == "GET")
        }
    }
}
