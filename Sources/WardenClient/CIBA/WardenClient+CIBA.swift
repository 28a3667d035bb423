import Foundation
import WardenWire

extension WardenClient {
    /// Starts a CIBA request at `/bc-authorize` (CIBA Core §7.1, RFC 9396, SPEC §6.1). The client must be
    /// confidential and allowed the CIBA grant. Errors are the server's: `invalid_request`,
    /// `invalid_binding_message`, `invalid_authorization_details`, `unknown_user_id` (400), `invalid_client`
    /// (401), `too_many_requests` (429) …
    public func backchannelAuthenticate(
        _ request: BackchannelAuthenticationRequest
    ) async throws -> BackchannelAuthentication {
        guard let endpoint = configuration.metadata.backchannelAuthenticationEndpoint else {
            throw WardenClientError.invalidResponse("the provider has no backchannel_authentication_endpoint")
        }
        var fields = [
            ("login_hint", request.loginHint.parameterValue), ("scope", request.scope.joined(separator: " ")),
        ]
        if let message = request.bindingMessage { fields.append(("binding_message", message)) }
        if let details = request.authorizationDetails {
            let json = try JSONEncoder().encode(details)
            fields.append(("authorization_details", String(decoding: json, as: UTF8.self)))
        }
        if let audience = request.audience { fields.append(("audience", audience)) }
        if let expiry = request.requestedExpiry { fields.append(("requested_expiry", String(expiry))) }
        let response = try await postForm(endpoint, fields)
        let started = try Self.decodeSuccess(BackchannelAnswer.self, from: response)
        return BackchannelAuthentication(
            authReqID: started.authReqID, expiresIn: started.expiresIn, interval: started.interval ?? 5,
            bindingMessage: request.bindingMessage)
    }

    /// The poller of a started request: an `AsyncSequence` of ``CIBAPollEvent`` that ends with the tokens
    /// (see ``CIBAPoll``).
    public func poll(_ authentication: BackchannelAuthentication) -> CIBAPoll {
        CIBAPoll(client: self, authentication: authentication)
    }

    /// Polls until the user approves and returns the tokens; throws as ``CIBAPoll`` does.
    public func waitForApproval(_ authentication: BackchannelAuthentication) async throws -> TokenResponse {
        for try await event in poll(authentication) {
            if case .approved(let tokens) = event { return tokens }
        }
        throw WardenClientError.invalidResponse("the poll ended without tokens")
    }
}

/// The `/bc-authorize` answer (CIBA Core §7.3).
private struct BackchannelAnswer: Decodable {
    var authReqID: String
    var expiresIn: Int
    var interval: Int?

    enum CodingKeys: String, CodingKey {
        case authReqID = "auth_req_id"
        case expiresIn = "expires_in"
        case interval
    }
}
