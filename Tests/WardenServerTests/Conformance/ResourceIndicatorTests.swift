import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing
import WardenCore
import WardenServer
import WardenTesting
import WardenWire

/// RFC 8707 resource indicators (SPEC §5): `resource` wherever `audience` is accepted, `invalid_target` for a
/// conflict, a repeat or an unknown API — an error redirect at `/authorize`, 400 at the token endpoint and at
/// `/bc-authorize`.
@Suite("Resource indicators")
struct ResourceIndicatorTests {
    @Test func resourceAtAuthorizeIsTheCodesAudience() async throws {
        let fixture = try await FrontChannelFixture.make()
        let api = try await fixture.warden.makeAPI()
        try await fixture.warden.test { http in
            var browser = Browser(http)
            let done = try await fixture.signIn(&browser, ["resource": api.identifier, "scope": "openid read:things"])
            let code = try #require(done.redirectParameters["code"])
            #expect(try await fixture.storedGrant(code: code).audience == api.identifier)
            // The same API named both ways is fine.
            let both = try await browser.get(
                fixture.authorizeURI(["resource": api.identifier, "audience": api.identifier]))
            #expect(both.redirectParameters["code"]?.isEmpty == false)
        }
    }

    @Test func resourceErrorsAtAuthorizeAreRedirectedAsInvalidTarget() async throws {
        let fixture = try await FrontChannelFixture.make()
        let api = try await fixture.warden.makeAPI()
        let other = try await fixture.warden.makeAPI()
        try await fixture.warden.test { http in
            let requests = [
                fixture.authorizeURI(["resource": api.identifier, "audience": other.identifier]),
                fixture.authorizeURI(["resource": api.identifier]) + "&resource=" + formEncode(other.identifier),
                fixture.authorizeURI(["resource": api.identifier]) + "&resource=" + formEncode(api.identifier),
                fixture.authorizeURI(["resource": "https://unknown.example.com/"]),
                fixture.authorizeURI(["resource": "not-absolute"]),
                fixture.authorizeURI(["resource": api.identifier + "#fragment"]),
                fixture.authorizeURI(["resource": "http://127.0.0.1:8080/api/v2/"]),
            ]
            for uri in requests {
                let response = try await http.execute(uri: uri, method: .get)
                #expect(response.status == .found, "\(uri)")
                #expect(response.headers[.location]?.hasPrefix(FrontChannelFixture.callback + "?") == true)
                #expect(response.redirectParameters["error"] == "invalid_target", "\(uri)")
                #expect(response.redirectParameters["state"] == "xyzABC123")
            }
        }
    }

    @Test func clientCredentialsTakesResource() async throws {
        let warden = try await TestWarden.make()
        let api = try await warden.makeAPI()
        let other = try await warden.makeAPI()
        let client = try await warden.makeClient()
        try await warden.grant(clientID: client.id, audience: api.identifier, scope: ["read:things"])
        let credentials = [
            ("grant_type", "client_credentials"), ("client_id", client.id), ("client_secret", client.secret),
        ]
        try await warden.test { http in
            let issued = try await http.postForm("/oauth/token", credentials + [("resource", api.identifier)])
            #expect(issued.status == .ok)
            let token = try CompactJWS(parsing: try #require(issued.json["access_token"]?.stringValue))
            #expect(token.audiences == [api.identifier])
            let json = try await http.postJSON(
                "/oauth/token",
                JSONValue.object(
                    Dictionary(uniqueKeysWithValues: credentials.map { ($0.0, JSONValue.string($0.1)) })
                        .merging(["resource": [.string(api.identifier)]]) { $1 }
                ).serialized)
            #expect(json.status == .ok)

            let refused: [[(String, String)]] = [
                [("resource", api.identifier), ("audience", other.identifier)],
                [("resource", api.identifier), ("resource", other.identifier)],
                [("resource", api.identifier), ("resource", api.identifier)],
                [("resource", "https://unknown.example.com/")],
                [("resource", "urn:no-fragment#x")],
            ]
            for extra in refused {
                expectError(
                    try await http.postForm("/oauth/token", credentials + extra), status: .badRequest,
                    code: "invalid_target")
            }
            let severalInJSON = JSONValue.object(
                Dictionary(uniqueKeysWithValues: credentials.map { ($0.0, JSONValue.string($0.1)) })
                    .merging(["resource": [.string(api.identifier), .string(other.identifier)]]) { $1 })
            expectError(
                try await http.postJSON("/oauth/token", severalInJSON.serialized), status: .badRequest,
                code: "invalid_target")
            // A registered API the client has no grant for stays 403 access_denied (SPEC §5).
            expectError(
                try await http.postForm("/oauth/token", credentials + [("resource", other.identifier)]),
                status: .forbidden, code: "access_denied")
            // Other parameters still may not repeat.
            expectError(
                try await http.postForm(
                    "/oauth/token", credentials + [("resource", api.identifier), ("scope", "a"), ("scope", "b")]),
                status: .badRequest, code: "invalid_request")
        }
    }

    @Test func backchannelAuthorizeTakesResource() async throws {
        let fixture = try await BackchannelFixture.make()
        let other = try await fixture.warden.makeAPI()
        try await fixture.warden.test { http in
            let accepted = try await fixture.start(["audience": nil, "resource": fixture.api.identifier], http: http)
            #expect(accepted.status == .ok, "\(accepted.json)")
            for changes in [
                ["resource": other.identifier], ["resource": "https://unknown.example.com/", "audience": nil],
            ] as [[String: String?]] {
                expectError(
                    try await fixture.start(changes, http: http), status: .badRequest, code: "invalid_target")
            }
        }
    }
}
