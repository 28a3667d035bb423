import Foundation
import WardenCore
import WardenWire

/// The checks of `GET|POST /authorize` (RFC 6749 §4.1.1, RFC 7636 §4.3, OIDC Core §3.1.2.1, SPEC §5), in order.
/// The client and its redirect URI come first: until both are verified an error is a page
/// (RFC 6749 §4.1.2.1); every later error is redirected back with `state`.
struct AuthorizationRequestValidator: Sendable {
    /// The clients, APIs and organizations a request names.
    let tenant: TenantCache

    /// A validator of requests for the clients, APIs and organizations (SPEC §19) of `tenant`.
    init(tenant: TenantCache) {
        self.tenant = tenant
    }

    /// The validated request and its client, or an ``AuthorizationFailure``.
    func validate(_ query: QueryParameters) async throws -> (request: AuthorizationRequest, client: Client) {
        let client = try await registeredClient(query)
        let redirectURI = try registeredRedirect(query, client: client)
        var target = AuthorizationResponseTarget(
            redirectURI: AuthorizationRequest.droppingFragment(redirectURI), mode: .query, state: query["state"])
        do {
            target.mode = try responseMode(query)
            let request = try await checkedRequest(query, client: client, redirectURI: redirectURI, mode: target.mode)
            return (request, client)
        } catch let error as OAuthError {
            throw AuthorizationFailure.redirect(error, target)
        }
    }

    private func registeredClient(_ query: QueryParameters) async throws -> Client {
        guard let clientID = query["client_id"], !query.repeated.contains("client_id") else {
            throw AuthorizationFailure.page(.unknownClient)
        }
        let record: ClientRecord?
        do {
            record = try await tenant.client(id: clientID)
        } catch let failure as ClientMetadataDocuments.Failure {
            // SPEC §13: the 400 page, naming the problem; never a redirect.
            throw AuthorizationFailure.page(.unusableMetadataDocument(failure.description))
        }
        guard let record else { throw AuthorizationFailure.page(.unknownClient) }
        return record.client
    }

    /// `redirect_uri` must equal a registered callback once its fragment is dropped (SPEC §5).
    private func registeredRedirect(_ query: QueryParameters, client: Client) throws -> String {
        guard let redirectURI = query["redirect_uri"], !query.repeated.contains("redirect_uri"),
            client.callbacks.contains(AuthorizationRequest.droppingFragment(redirectURI))
        else { throw AuthorizationFailure.page(.invalidRedirect) }
        return redirectURI
    }

    private func responseMode(_ query: QueryParameters) throws(OAuthError) -> AuthorizationRequest.ResponseMode {
        guard let value = query["response_mode"] else { return .query }
        guard let mode = AuthorizationRequest.ResponseMode(rawValue: value) else {
            throw .invalidRequest("Unsupported response_mode: \(value). Use query or form_post")
        }
        return mode
    }

    private func checkedRequest(
        _ query: QueryParameters, client: Client, redirectURI: String, mode: AuthorizationRequest.ResponseMode
    ) async throws -> AuthorizationRequest {
        // `resource` may repeat (RFC 8707): ResourceIndicator answers `invalid_target` for it.
        if let name = query.repeated.subtracting(["resource"]).sorted().first {
            throw OAuthError.invalidRequest("Parameter '\(name)' is repeated")
        }
        // OIDC Core §6 / SPEC §5: request objects are refused, never silently ignored.
        if query["request"] != nil {
            throw OAuthError(.requestNotSupported, "The request parameter is not supported")
        }
        if query["request_uri"] != nil {
            throw OAuthError(.requestURINotSupported, "The request_uri parameter is not supported")
        }
        try checkResponseType(query)
        guard client.allows(.authorizationCode) else {
            throw OAuthError(.unauthorizedClient, "Grant type 'authorization_code' not allowed for the client.")
        }
        let organization = try await organization(query, client: client)
        return AuthorizationRequest(
            clientID: client.clientID, redirectURI: redirectURI, responseMode: mode, state: query["state"],
            nonce: query["nonce"], scope: scopes(query), audience: try await audience(query),
            codeChallenge: try codeChallenge(query, client: client), prompt: try prompt(query),
            maxAge: try maxAge(query),
            acrValues: query["acr_values"].map { $0.split(separator: " ").prefix(10).map { String($0.prefix(200)) } },
            connection: query["connection"].flatMap { $0.isEmpty ? nil : String($0.prefix(128)) },
            connectionScope: query["connection_scope"].map {
                $0.split(separator: ",").prefix(20).map { String($0.trimmingCharacters(in: .whitespaces).prefix(200)) }
            }, loginHint: query["login_hint"].map { String($0.prefix(256)) }, organization: organization?.id,
            invitation: query["invitation"].map { String($0.prefix(128)) })
    }

    /// `organization` (an id or a name) and `invitation` (SPEC §19): refused outright for a `deny` client (the 400
    /// page: the application is misconfigured, not the request); an unknown organization, an invitation without
    /// its organization, or a `require` client's request without one and without a prompt to ask for it
    /// (`organization_require_behavior` `no_prompt`) → `invalid_request`.
    private func organization(_ query: QueryParameters, client: Client) async throws -> Organization? {
        let usage = client.organizationUsage ?? .deny
        guard let named = query["organization"], !named.isEmpty else {
            if query["invitation"] != nil {
                throw OAuthError.invalidRequest("invitation needs the organization parameter")
            }
            if usage == .require, (client.organizationRequireBehavior ?? .noPrompt) == .noPrompt {
                throw OAuthError.invalidRequest("The application requires the organization parameter")
            }
            return nil
        }
        guard usage != .deny else { throw AuthorizationFailure.page(.organizationsNotAllowed) }
        guard let found = try await organization(named: named) else {
            throw OAuthError.invalidRequest("The organization \(String(named.prefix(64))) does not exist")
        }
        return found
    }

    /// The organization `named` names: an id (`org_…`) or a name (SPEC §19).
    func organization(named: String) async throws -> Organization? {
        named.hasPrefix("org_")
            ? try await tenant.organization(id: named) : try await tenant.organization(name: named)
    }

    private func checkResponseType(_ query: QueryParameters) throws(OAuthError) {
        guard let responseType = query["response_type"] else {
            throw .invalidRequest("Missing required parameter: response_type")
        }
        guard responseType == "code" else {
            throw OAuthError(.unsupportedResponseType, "Unsupported response type: \(responseType)")
        }
    }

    /// PKCE (RFC 7636 §4.3, SPEC §5): S256 only, a well-formed challenge, and mandatory for public clients.
    private func codeChallenge(_ query: QueryParameters, client: Client) throws(OAuthError) -> String? {
        let method = query["code_challenge_method"]
        guard let challenge = query["code_challenge"] else {
            if method != nil { throw .invalidRequest("code_challenge_method was sent without code_challenge") }
            if client.isPublic {
                throw .invalidRequest(
                    "Public clients must use PKCE: send code_challenge with code_challenge_method=S256")
            }
            return nil
        }
        guard let method else { throw .invalidRequest("Missing code_challenge_method: only S256 is supported") }
        guard method == CodeChallenge.s256 else {
            throw .invalidRequest("Unsupported code_challenge_method: \(method). Only S256 is supported")
        }
        guard CodeChallenge.isWellFormed(challenge: challenge) else {
            throw .invalidRequest("code_challenge must be 43 base64url characters (RFC 7636 §4.2)")
        }
        return challenge
    }

    /// `audience` or its RFC 8707 synonym `resource` (SPEC §5): a registered API, never the system Management API.
    private func audience(_ query: QueryParameters) async throws -> String? {
        let requested = try ResourceIndicator.requested(
            audience: query["audience"], resource: query["resource"],
            resourceRepeated: query.repeated.contains("resource"))
        return try await ResourceIndicator.userFacingAPI(requested, in: tenant)?.identifier
    }

    private func prompt(_ query: QueryParameters) throws(OAuthError) -> Set<AuthorizationRequest.Prompt> {
        var prompts: Set<AuthorizationRequest.Prompt> = []
        for value in (query["prompt"] ?? "").split(separator: " ") {
            guard let prompt = AuthorizationRequest.Prompt(rawValue: String(value)) else {
                throw .invalidRequest("Unsupported prompt: \(value)")
            }
            prompts.insert(prompt)
        }
        if prompts.contains(.none), prompts.count > 1 {
            throw .invalidRequest("prompt=none cannot be combined with other values")
        }
        return prompts
    }

    private func maxAge(_ query: QueryParameters) throws(OAuthError) -> Int? {
        guard let text = query["max_age"] else { return nil }
        guard let seconds = Int(text), seconds >= 0 else {
            throw .invalidRequest("max_age must be a non-negative number of seconds")
        }
        return seconds
    }

    private func scopes(_ query: QueryParameters) -> [String] {
        var seen: Set<String> = []
        return (query["scope"] ?? "").split(separator: " ").map(String.init).filter { seen.insert($0).inserted }
    }
}
