import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
import WardenCore
import WardenServer
import WardenTesting
import WardenWire

/// Discovery (SPEC §2, OIDC Discovery 1.0 §3, RFC 8414 §2–3, RFC 9396 §10) and the refusal of request objects at
/// `/authorize` (OIDC Core §6, SPEC §5).
@Suite("Discovery conformance")
struct DiscoveryConformanceTests {
    static func configuration(_ http: some TestClientProtocol, path: String = "openid-configuration") async throws
        -> JSONValue
    {
        let response = try await http.execute(uri: "/.well-known/" + path, method: .get)
        #expect(response.status == .ok)
        return response.json
    }

    @Test func theDocumentAdvertisesIntrospectionRequestObjectsAndACRValues() async throws {
        let warden = try await TestWarden.make()
        try await warden.test { http in
            let document = try await Self.configuration(http)
            #expect(document["introspection_endpoint"] == "http://127.0.0.1:8080/oauth/introspect")
            #expect(document["request_parameter_supported"] == false)
            #expect(document["request_uri_parameter_supported"] == false)
            #expect(
                document["acr_values_supported"]?.arrayValue?.contains(
                    "http://schemas.openid.net/pape/policies/2007/06/multi-factor") == true)
            #expect(document["authorization_details_types_supported"] == [])
        }
    }

    @Test func theRFC8414PathServesTheSameDocument() async throws {
        let warden = try await TestWarden.make()
        _ = try await warden.makeAPI { $0.authorizationDetails = [.init(type: "money_transfer")] }
        try await warden.test { http in
            let openID = try await Self.configuration(http)
            let oauth = try await Self.configuration(http, path: "oauth-authorization-server")
            #expect(oauth == openID)
            #expect(oauth["issuer"] == "http://127.0.0.1:8080/")
        }
    }

    /// SPEC §2: the union of every API's types, current at once on the node that made the change.
    @Test func authorizationDetailsTypesFollowTheAPIs() async throws {
        let warden = try await TestWarden.make()
        _ = try await warden.makeAPI { $0.authorizationDetails = [.init(type: "money_transfer")] }
        try await warden.management { admin in
            let created = try await admin.expect(
                .created, .post, "resource-servers",
                json: [
                    "name": "Payments", "identifier": "https://payments.example.com/",
                    "authorization_details": [["type": "payment_initiation"], ["type": "money_transfer"]],
                ])
            let types = try await Self.configuration(admin.http)["authorization_details_types_supported"]
            #expect(types == ["money_transfer", "payment_initiation"])
            let id = try #require(created["id"]?.stringValue)
            try await admin.expect(.noContent, .delete, "resource-servers/\(id)")
            #expect(
                try await Self.configuration(admin.http)["authorization_details_types_supported"] == ["money_transfer"])
        }
    }

    /// OIDC Core §6 / SPEC §5: never silently ignored.
    @Test(arguments: [("request", "request_not_supported"), ("request_uri", "request_uri_not_supported")])
    func requestObjectsAreRefusedWithARedirect(parameter: String, error: String) async throws {
        let fixture = try await FrontChannelFixture.make()
        try await fixture.warden.test { http in
            let response = try await http.execute(
                uri: fixture.authorizeURI([parameter: "eyJhbGciOiJub25lIn0.e30."]), method: .get)
            #expect(response.status == .found)
            #expect(response.headers[.location]?.hasPrefix(FrontChannelFixture.callback + "?") == true)
            #expect(response.redirectParameters["error"] == error)
            #expect(response.redirectParameters["state"] == "xyzABC123")
        }
    }
}
