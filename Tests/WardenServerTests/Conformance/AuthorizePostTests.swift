import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing
import WardenCore
import WardenServer
import WardenTesting
import WardenWire

/// `POST /authorize` (OIDC Core §3.1.2.1, SPEC §5): a form body with the same parameters gets the same answers
/// as `GET`.
@Suite("POST /authorize")
struct AuthorizePostTests {
    /// The fields of `fixture.authorizeURI(changes)`, as a form body.
    static func fields(_ fixture: FrontChannelFixture, _ changes: [String: String?] = [:]) -> [(String, String)] {
        let uri = fixture.authorizeURI(changes)
        let items = URLComponents(string: "http://x" + uri)?.queryItems ?? []
        return items.map { ($0.name, $0.value ?? "") }
    }

    @Test func aPostedRequestSignsInAndRedirectsWithACode() async throws {
        let fixture = try await FrontChannelFixture.make()
        try await fixture.warden.test { http in
            var browser = Browser(http)
            let start = try await browser.post("/authorize", Self.fields(fixture))
            #expect(start.status == .found)
            let location = try #require(start.headers[.location])
            #expect(location.hasPrefix("/u/login?state="))
            let done = try await fixture.submitLogin(
                &browser, form: try await browser.get(location), email: fixture.email,
                password: FrontChannelFixture.password)
            #expect(done.status == .found)
            #expect(done.headers[.location]?.hasPrefix(FrontChannelFixture.callback + "?code=") == true)
            #expect(done.redirectParameters["state"] == "xyzABC123")
            // With the SSO session, a second POST answers at once, as GET would.
            let again = try await browser.post("/authorize", Self.fields(fixture))
            #expect(again.redirectParameters["code"]?.isEmpty == false)
        }
    }

    @Test func aPostedErrorIsRedirectedAsForGet() async throws {
        let fixture = try await FrontChannelFixture.make()
        try await fixture.warden.test { http in
            for changes in [["code_challenge_method": "plain"], ["prompt": "none"]] as [[String: String?]] {
                let viaGet = try await http.execute(uri: fixture.authorizeURI(changes), method: .get)
                let viaPost = try await http.postForm("/authorize", Self.fields(fixture, changes))
                #expect(viaPost.status == .found)
                #expect(viaPost.redirectParameters["error"] != nil)
                #expect(viaPost.redirectParameters["error"] == viaGet.redirectParameters["error"])
                #expect(viaPost.redirectParameters["state"] == "xyzABC123")
            }
            let repeated = try await http.postForm(
                "/authorize", Self.fields(fixture) + [("scope", "openid")])
            #expect(repeated.redirectParameters["error"] == "invalid_request")
        }
    }

    @Test func anUnknownClientOrRedirectIsAPageNeverARedirect() async throws {
        let fixture = try await FrontChannelFixture.make()
        try await fixture.warden.test { http in
            for changes in [["client_id": "nobody"], ["redirect_uri": "https://evil.example.com/cb"]] {
                let response = try await http.postForm("/authorize", Self.fields(fixture, changes))
                #expect(response.status == .badRequest)
                #expect(response.headers[.location] == nil)
                #expect(response.headers[.contentType]?.hasPrefix("text/html") == true)
            }
        }
    }

    @Test func aBodyThatIsNotAFormIsAPage() async throws {
        let fixture = try await FrontChannelFixture.make()
        try await fixture.warden.test { http in
            let json = try await http.postJSON("/authorize", #"{"client_id":"\#(fixture.clientID)"}"#)
            #expect(json.status == .badRequest)
            #expect(json.headers[.location] == nil)
            let large = try await http.postForm(
                "/authorize", Self.fields(fixture) + [("padding", String(repeating: "x", count: 70 * 1024))])
            #expect(large.status == .contentTooLarge)
        }
    }
}
