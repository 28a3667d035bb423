import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
import WardenCore
import WardenServer
import WardenTesting
import WardenWire

/// `GET /authorize` request checks (SPEC §5, RFC 6749 §4.1.2.1, RFC 7636 §4.3): what is shown as a page and
/// never redirected, and what is redirected back with `error`, `error_description` and `state`.
@Suite("/authorize request checks")
struct AuthorizeRequestTests {
    /// A request that must be refused with a redirect carrying `error`.
    struct RedirectedCase: Sendable, CustomTestStringConvertible {
        var name: String
        var changes: [String: String?]
        var error: String
        var testDescription: String { name }
    }

    static let redirectedCases: [RedirectedCase] = [
        .init(name: "plain PKCE method", changes: ["code_challenge_method": "plain"], error: "invalid_request"),
        .init(name: "challenge without method", changes: ["code_challenge_method": nil], error: "invalid_request"),
        .init(
            name: "method without challenge", changes: ["code_challenge": nil], error: "invalid_request"),
        .init(
            name: "public client without PKCE", changes: ["code_challenge": nil, "code_challenge_method": nil],
            error: "invalid_request"),
        .init(name: "malformed challenge", changes: ["code_challenge": "too-short"], error: "invalid_request"),
        .init(name: "token response type", changes: ["response_type": "token"], error: "unsupported_response_type"),
        .init(name: "missing response type", changes: ["response_type": nil], error: "invalid_request"),
        .init(
            name: "unknown audience", changes: ["audience": "https://unknown.example.com/"], error: "invalid_request"),
        .init(
            name: "management API audience", changes: ["audience": "http://127.0.0.1:8080/api/v2/"],
            error: "invalid_request"),
        .init(name: "unknown prompt", changes: ["prompt": "select_account"], error: "invalid_request"),
        .init(name: "prompt none with login", changes: ["prompt": "none login"], error: "invalid_request"),
        .init(name: "negative max_age", changes: ["max_age": "-1"], error: "invalid_request"),
        .init(name: "fragment response mode", changes: ["response_mode": "fragment"], error: "invalid_request"),
        .init(name: "prompt none without session", changes: ["prompt": "none"], error: "login_required"),
    ]

    @Test(arguments: redirectedCases)
    func errorsAreRedirectedWithState(_ testCase: RedirectedCase) async throws {
        let fixture = try await FrontChannelFixture.make()
        try await fixture.warden.test { http in
            let response = try await http.execute(uri: fixture.authorizeURI(testCase.changes), method: .get)
            #expect(response.status == .found)
            let location = try #require(response.headers[.location])
            #expect(location.hasPrefix(FrontChannelFixture.callback + "?"))
            let parameters = response.redirectParameters
            #expect(parameters["error"] == testCase.error)
            #expect(parameters["error_description"]?.isEmpty == false)
            #expect(parameters["state"] == "xyzABC123")
            #expect(parameters["code"] == nil)
        }
    }

    @Test func clientWithoutTheAuthorizationCodeGrantIsUnauthorized() async throws {
        let fixture = try await FrontChannelFixture.make { $0.grantTypes = [.refreshToken] }
        try await fixture.warden.test { http in
            let response = try await http.execute(uri: fixture.authorizeURI(), method: .get)
            #expect(response.redirectParameters["error"] == "unauthorized_client")
        }
    }

    @Test func repeatedParametersAreRefused() async throws {
        let fixture = try await FrontChannelFixture.make()
        try await fixture.warden.test { http in
            let response = try await http.execute(uri: fixture.authorizeURI() + "&scope=openid", method: .get)
            #expect(response.redirectParameters["error"] == "invalid_request")
            #expect(response.redirectParameters["error_description"] == "Parameter 'scope' is repeated")
        }
    }

    @Test func confidentialClientMayOmitPKCE() async throws {
        let fixture = try await FrontChannelFixture.make { $0.tokenEndpointAuthMethod = .clientSecretPost }
        try await fixture.warden.test { http in
            let response = try await http.execute(
                uri: fixture.authorizeURI(["code_challenge": nil, "code_challenge_method": nil]), method: .get)
            #expect(response.headers[.location]?.hasPrefix("/u/login?state=") == true)
        }
    }

    /// A page case: the request must never be redirected.
    struct PageCase: Sendable, CustomTestStringConvertible {
        var name: String
        var changes: [String: String?]
        var text: String
        var testDescription: String { name }
    }

    static let pageCases: [PageCase] = [
        .init(
            name: "unregistered redirect", changes: ["redirect_uri": "https://evil.example.com/callback"],
            text: "The application sent an invalid redirect address"),
        .init(
            name: "redirect with another path", changes: ["redirect_uri": FrontChannelFixture.callback + "/x"],
            text: "invalid redirect address"),
        .init(name: "missing redirect", changes: ["redirect_uri": nil], text: "invalid redirect address"),
        .init(name: "unknown client", changes: ["client_id": "no-such-client"], text: "is not registered"),
        .init(name: "missing client", changes: ["client_id": nil], text: "is not registered"),
        .init(
            name: "unregistered redirect with a bad PKCE method",
            changes: ["redirect_uri": "https://evil.example.com/", "code_challenge_method": "plain"],
            text: "invalid redirect address"),
    ]

    @Test(arguments: pageCases)
    func untrustedRedirectsAreShownAsPagesNeverRedirected(_ testCase: PageCase) async throws {
        let fixture = try await FrontChannelFixture.make()
        try await fixture.warden.test { http in
            let response = try await http.execute(uri: fixture.authorizeURI(testCase.changes), method: .get)
            #expect(response.status == .badRequest)
            #expect(response.headers[.location] == nil)
            #expect(response.headers[.contentType] == "text/html; charset=utf-8")
            #expect(response.text.contains(testCase.text))
            #expect(response.text.contains("Contact the application&#39;s developer."))
        }
    }

    /// SPEC §15: a connection that is unknown, or not enabled for the client, is the 400 error page.
    @Test func anUnknownConnectionIsThe400Page() async throws {
        let fixture = try await FrontChannelFixture.make()
        try await fixture.warden.test { http in
            let response = try await http.execute(uri: fixture.authorizeURI(["connection": "github"]), method: .get)
            #expect(response.status == .badRequest)
            #expect(response.headers[.location] == nil)
            #expect(response.headers[.contentType] == "text/html; charset=utf-8")
            #expect(response.text.contains("“github”, which is not available to it"))
        }
    }

    @Test func aFragmentIsDroppedBeforeMatchingAndFromTheRedirect() async throws {
        let fixture = try await FrontChannelFixture.make()
        try await fixture.warden.test { http in
            let response = try await http.execute(
                uri: fixture.authorizeURI(["redirect_uri": FrontChannelFixture.callback + "#frag", "prompt": "none"]),
                method: .get)
            #expect(
                response.headers[.location]?.hasPrefix(FrontChannelFixture.callback + "?error=login_required") == true)
        }
    }

    @Test func formPostDeliversErrorsInAFormThatWorksWithoutJavaScript() async throws {
        let fixture = try await FrontChannelFixture.make()
        try await fixture.warden.test { http in
            let response = try await http.execute(
                uri: fixture.authorizeURI(["response_mode": "form_post", "code_challenge_method": "plain"]),
                method: .get)
            #expect(response.status == .ok)
            let html = response.text
            #expect(html.contains("action=\"\(FrontChannelFixture.callback)\""))
            #expect(hiddenField("error", in: html) == "invalid_request")
            #expect(hiddenField("state", in: html) == "xyzABC123")
            #expect(html.contains("<button type=\"submit\">"))
        }
    }
}
