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

/// Every error of SPEC §4, §5 and §11 that `/oauth/token` can give for the grants built so far.
@Suite("/oauth/token errors")
struct TokenEndpointErrorTests {
    struct Setup {
        let warden: TestWarden
        let api: ResourceServer
        let client: (id: String, secret: String)
        var form: [(String, String)] {
            [
                ("grant_type", "client_credentials"), ("client_id", client.id), ("client_secret", client.secret),
                ("audience", api.identifier),
            ]
        }
    }

    static func setup() async throws -> Setup {
        let warden = try await TestWarden.make()
        let api = try await warden.makeAPI()
        let client = try await warden.makeClient()
        try await warden.grant(clientID: client.id, audience: api.identifier, scope: ["read:things"])
        return Setup(warden: warden, api: api, client: client)
    }

    @Test func wrongSecretByBasicIs401WithWWWAuthenticate() async throws {
        let s = try await Self.setup()
        try await s.warden.test { http in
            let response = try await http.postForm(
                "/oauth/token", [("grant_type", "client_credentials"), ("audience", s.api.identifier)],
                headers: [.authorization: "Basic " + Data("\(s.client.id):wrong".utf8).base64EncodedString()])
            expectError(response, status: .unauthorized, code: "invalid_client")
            #expect(response.headers[.wwwAuthenticate]?.hasPrefix("Basic") == true)
        }
    }

    @Test func wrongSecretByPostIs401() async throws {
        let s = try await Self.setup()
        try await s.warden.test { http in
            var form = s.form
            form[2] = ("client_secret", "wrong")
            expectError(
                try await http.postForm("/oauth/token", form), status: .unauthorized, code: "invalid_client")
            form[1] = ("client_id", "nobody")
            expectError(
                try await http.postForm("/oauth/token", form), status: .unauthorized, code: "invalid_client")
        }
    }

    @Test func oversizedBodyIs413() async throws {
        let s = try await Self.setup()
        try await s.warden.test { http in
            let response = try await http.postForm(
                "/oauth/token", s.form + [("padding", String(repeating: "x", count: 70_000))])
            expectError(response, status: .contentTooLarge, code: "invalid_request")
        }
    }

    @Test func wrongContentTypeIs400() async throws {
        let s = try await Self.setup()
        try await s.warden.test { http in
            let response = try await http.execute(
                uri: "/oauth/token", method: .post, headers: [.contentType: "text/plain"],
                body: ByteBuffer(string: "grant_type=client_credentials"))
            expectError(response, status: .badRequest, code: "invalid_request")
        }
    }

    @Test func malformedJSONIs400() async throws {
        let s = try await Self.setup()
        try await s.warden.test { http in
            expectError(
                try await http.postJSON("/oauth/token", "{not json"), status: .badRequest, code: "invalid_request")
            expectError(
                try await http.postJSON("/oauth/token", "[1,2]"), status: .badRequest, code: "invalid_request")
        }
    }

    @Test func duplicatedParameterIs400() async throws {
        let s = try await Self.setup()
        try await s.warden.test { http in
            let response = try await http.postForm("/oauth/token", s.form + [("audience", s.api.identifier)])
            expectError(response, status: .badRequest, code: "invalid_request")
        }
    }

    /// SPEC §11: an empty value still counts as a repeat, before or after the real one.
    @Test(arguments: ["grant_type=&grant_type=client_credentials", "grant_type=client_credentials&grant_type="])
    func anEmptyRepeatIsStillARepeat(grantTypes: String) async throws {
        let s = try await Self.setup()
        try await s.warden.test { http in
            let rest = s.form.dropFirst().map { "\($0.0)=\(formEncode($0.1))" }.joined(separator: "&")
            let response = try await http.execute(
                uri: "/oauth/token", method: .post,
                headers: [.contentType: "application/x-www-form-urlencoded"],
                body: ByteBuffer(string: grantTypes + "&" + rest))
            expectError(response, status: .badRequest, code: "invalid_request")
            #expect(response.json["error_description"] == "Parameter 'grant_type' is repeated")
        }
    }

    @Test func missingAndUnknownGrantTypes() async throws {
        let s = try await Self.setup()
        try await s.warden.test { http in
            expectError(
                try await http.postForm("/oauth/token", Array(s.form.dropFirst())), status: .badRequest,
                code: "invalid_request")
            var form = s.form
            form[0] = ("grant_type", "urn:example:magic")
            expectError(
                try await http.postForm("/oauth/token", form), status: .badRequest, code: "unsupported_grant_type")
        }
    }

    @Test func clientWithoutTheGrantIsUnauthorizedClient() async throws {
        let s = try await Self.setup()
        let other = try await s.warden.makeClient(grantTypes: [.authorizationCode])
        try await s.warden.test { http in
            let response = try await http.postForm(
                "/oauth/token",
                [
                    ("grant_type", "client_credentials"), ("client_id", other.id), ("client_secret", other.secret),
                    ("audience", s.api.identifier),
                ])
            expectError(response, status: .badRequest, code: "unauthorized_client")
        }
    }

    @Test func missingAudienceIsInvalidRequest() async throws {
        let s = try await Self.setup()
        try await s.warden.test { http in
            expectError(
                try await http.postForm("/oauth/token", Array(s.form.dropLast())), status: .badRequest,
                code: "invalid_request")
        }
    }

    @Test func noClientGrantIs403AccessDenied() async throws {
        let s = try await Self.setup()
        let otherAPI = try await s.warden.makeAPI()
        try await s.warden.test { http in
            var form = s.form
            form[3] = ("audience", otherAPI.identifier)
            expectError(
                try await http.postForm("/oauth/token", form), status: .forbidden, code: "access_denied")
            form[3] = ("audience", "https://unknown.example.com/")
            expectError(
                try await http.postForm("/oauth/token", form), status: .forbidden, code: "access_denied")
        }
    }

    @Test func scopeOutsideTheGrantIsInvalidScope() async throws {
        let s = try await Self.setup()
        try await s.warden.test { http in
            let response = try await http.postForm("/oauth/token", s.form + [("scope", "read:things write:things")])
            expectError(response, status: .badRequest, code: "invalid_scope")
        }
    }

    @Test func twoAuthenticationMethodsAreRefused() async throws {
        let s = try await Self.setup()
        try await s.warden.test { http in
            let response = try await http.postForm(
                "/oauth/token", s.form,
                headers: [
                    .authorization: "Basic " + Data("\(s.client.id):\(s.client.secret)".utf8).base64EncodedString()
                ])
            expectError(response, status: .badRequest, code: "invalid_request")
        }
    }

    @Test func publicClientCannotUseClientCredentials() async throws {
        let s = try await Self.setup()
        let publicClient = try await s.warden.makeClient(configure: {
            $0.tokenEndpointAuthMethod = TokenEndpointAuthMethod.none
        })
        try await s.warden.test { http in
            let response = try await http.postForm(
                "/oauth/token",
                [("grant_type", "client_credentials"), ("client_id", publicClient.id), ("audience", s.api.identifier)])
            expectError(response, status: .unauthorized, code: "invalid_client")
        }
    }

    @Test func failuresAreLogged() async throws {
        let s = try await Self.setup()
        try await s.warden.test { http in
            _ = try await http.postForm("/oauth/token", s.form + [("scope", "nope")])
            _ = try await http.postForm("/oauth/token", s.form)
        }
        await s.warden.flushLogs()
        let failed = try await s.warden.runtime.store.searchLogs(
            LogFilter(terms: ["type": ["feccft"], "client_id": [s.client.id]]), ascending: false,
            page: PageRequest(page: 0, perPage: 10))
        let succeeded = try await s.warden.runtime.store.searchLogs(
            LogFilter(terms: ["type": ["seccft"], "client_id": [s.client.id]]), ascending: false,
            page: PageRequest(page: 0, perPage: 10))
        #expect(failed.total == 1)
        #expect(succeeded.total == 1)
        #expect(succeeded.items.first?.audience == s.api.identifier)
    }
}
