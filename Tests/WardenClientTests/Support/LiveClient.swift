import Foundation
import Testing
import WardenClient
import WardenWire

/// An SDK client discovered from a live tenant, with the recording transport it uses.
struct LiveClient {
    let live: LiveWarden
    let client: WardenClient
    let transport: RecordingTransport

    /// Discovers the tenant as `clientID` (the native client by default).
    static func discover(
        _ live: LiveWarden, clientID: String? = nil, authentication: ClientAuthentication = .none
    ) async throws -> LiveClient {
        let transport = RecordingTransport(live: live)
        let client = try await WardenClient.discover(
            issuer: live.issuer, clientID: clientID ?? live.nativeClientID, authentication: authentication,
            transport: transport)
        return LiveClient(live: live, client: client, transport: transport)
    }

    /// The CIBA client, authenticated with `client_secret_post`.
    static func ciba(_ live: LiveWarden) async throws -> LiveClient {
        try await discover(
            live, clientID: live.cibaClient.id, authentication: .clientSecretPost(live.cibaClient.secret))
    }

    /// A copy of the client with another configuration (same transport and metadata).
    func reconfigured(_ change: (inout WardenClient.Configuration) -> Void) -> WardenClient {
        var configuration = client.configuration
        change(&configuration)
        return WardenClient(configuration: configuration, transport: transport)
    }

    /// Logs the user in through the hosted form and returns the request and the code's tokens.
    func logIn(
        scope: [String] = ["openid", "profile", "email", "offline_access"], audience: String? = nil
    ) async throws -> (request: AuthorizationRequest, tokens: TokenResponse) {
        let request = client.authorizationRequest(redirectURI: LiveWarden.callback, scope: scope, audience: audience)
        var browser = Browser(transport: transport, origin: live.issuer)
        let callback = try await browser.logIn(at: request.url, email: live.email)
        let code = try client.authorizationCode(from: callback, for: request)
        return (request, try await client.exchangeCode(code, for: request))
    }
}

extension LiveClient {
    /// Enrols the user's phone from a Management API enrolment ticket (SPEC §7.1).
    func enrollDevice() async throws -> Device {
        let ticket = try await live.management(
            "POST", "guardian/enrollments/ticket", json: #"{"user_id":"\#(live.userID)"}"#, transport: transport)
        let id = try #require(ticket.json["ticket_id"]?.stringValue, "\(ticket.json)")
        let page = try await transport.send(
            HTTPRequest(method: "GET", url: URL(string: live.issuer.absoluteString + "u/guardian/enroll?ticket=" + id)!)
        )
        return try await Device.enroll(live, ticketPage: String(decoding: page.body, as: UTF8.self))
    }
}
