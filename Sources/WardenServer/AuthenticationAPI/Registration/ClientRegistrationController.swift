import Foundation
import HTTPTypes
import Hummingbird
import NIOFoundationCompat
import WardenCore
import WardenWire

/// `POST /oidc/register` (RFC 7591, SPEC §13): a client registers itself — an MCP client, say — without an
/// operator. With `--registration open` anyone may, within the per-address rate limit; with `token` the caller
/// shows a Management token holding `create:clients` (RFC 7591 §3's initial access token). Registered clients
/// are third-party, limited to the authorization code and refresh token grants, and logged (`sdcr` / `fdcr`).
/// With `off` (the default) the route does not exist.
struct ClientRegistrationController: Sendable {
    let mode: WardenConfiguration.RegistrationMode
    let clients: any ClientStore
    let managementAuth: ManagementAuthMiddleware
    let limiter: AddressRateLimiter
    let eventLog: EventLog
    let clock: any WardenClock
    let trustedProxies: [CIDR]

    /// The scope a Management token needs in `token` mode.
    static let scope = "create:clients"

    init(
        mode: WardenConfiguration.RegistrationMode, clients: any ClientStore, managementAuth: ManagementAuthMiddleware,
        limiter: AddressRateLimiter, eventLog: EventLog, clock: any WardenClock, trustedProxies: [CIDR]
    ) {
        self.mode = mode
        self.clients = clients
        self.managementAuth = managementAuth
        self.limiter = limiter
        self.eventLog = eventLog
        self.clock = clock
        self.trustedProxies = trustedProxies
    }

    func addRoutes(to router: Router<WardenRequestContext>) {
        guard mode != .off else { return }
        router.post("oidc/register") { request, context in try await register(request, context) }
    }

    private func register(_ request: Request, _ context: WardenRequestContext) async throws -> Response {
        let ip = ClientAddress.ip(of: request, context: context, trusted: trustedProxies)
        do {
            if let seconds = limiter.admit(ip ?? "unknown") {
                throw OAuthError(
                    .tooManyRequests, "Too many registrations from this address. Try again in \(seconds) seconds.",
                    headers: [(name: "Retry-After", value: String(seconds))])
            }
            if mode == .token { try authorize(request.headers[.authorization]) }
            let metadata = try RegistrationMetadata(try await Self.body(request))
            let issuedAt = Int(clock.now().timeIntervalSince1970)
            let client = metadata.client(id: RandomToken.identifier(prefix: "", length: 32), issuedAt: issuedAt)
            let secret = metadata.usesSecret ? RandomToken.make() : nil
            let now = clock.now()
            try await clients.insertClient(
                ClientRecord(
                    client: client, secretHash: secret.map(SecretHash.sha256Hex), createdAt: now, updatedAt: now,
                    expiresAt: now.addingTimeInterval(ClientRegistration.unusedLifetime)))
            log(.registrationSucceeded, "Dynamic client registration", request, ip: ip, client: client)
            return Response.json(
                Self.representation(client, metadata: metadata, secret: secret), status: .created,
                noStore: true)
        } catch let error as OAuthError {
            log(
                .registrationFailed, error.description, request, ip: ip, client: nil,
                details: ["error": .string(error.code.rawValue)])
            throw error
        }
    }

    /// `token` mode: a Management token with `create:clients`; 401 `invalid_token` or 403 `insufficient_scope`
    /// with the RFC 6750 §3 challenge otherwise.
    private func authorize(_ authorization: String?) throws(OAuthError) {
        let scopes: Set<String>
        do {
            (_, scopes) = try managementAuth.verify(authorization)
        } catch {
            throw OAuthError(
                .invalidToken, "Registration needs an initial access token: \(error.message)",
                headers: [(name: "WWW-Authenticate", value: #"Bearer error="invalid_token""#)])
        }
        guard scopes.contains(Self.scope) else {
            throw OAuthError(
                .insufficientScope, "The token lacks the scope \(Self.scope)",
                headers: [
                    (name: "WWW-Authenticate", value: #"Bearer error="insufficient_scope", scope="create:clients""#)
                ])
        }
    }

    /// The JSON object of the request (RFC 7591 §3.1: `application/json`), within the SPEC §11 size limit.
    private static func body(_ request: Request) async throws -> [String: JSONValue] {
        let type = request.headers[.contentType]?.split(separator: ";").first
        guard type?.trimmingCharacters(in: .whitespaces).lowercased() == "application/json" else {
            throw OAuthError(.invalidClientMetadata, "The request body must be JSON (Content-Type: application/json)")
        }
        let buffer = try await RequestBodyReader.collect(
            request, tooLarge: OAuthError(.invalidRequest, "The request body is larger than 64 KiB", status: 413))
        guard case .object(let object)? = try? JSONValue(parsing: buffer.readableBytesView) else {
            throw OAuthError(.invalidClientMetadata, "The request body is not a JSON object")
        }
        return object
    }

    /// The registration response (RFC 7591 §3.2.1): the registered metadata, the `client_id`, when it was issued,
    /// and for a confidential client its secret, which does not expire (`client_secret_expires_at: 0`).
    static func representation(_ client: Client, metadata: RegistrationMetadata, secret: String?) -> JSONValue {
        var members: [String: JSONValue] = [
            "client_id": .string(client.clientID),
            "client_id_issued_at": .number(Double(client.registration?.issuedAt ?? 0)),
            "client_name": .string(client.name),
            "redirect_uris": .array(client.callbacks.map(JSONValue.string)),
            "grant_types": .array(metadata.grantTypes.map { .string($0.rawValue) }),
            "response_types": .array([.string("code")]),
            "token_endpoint_auth_method": .string(metadata.tokenEndpointAuthMethod.rawValue),
        ]
        let optional: [(String, String?)] = [
            ("scope", metadata.scope), ("client_uri", metadata.clientURI), ("logo_uri", metadata.logoURI),
            ("software_id", metadata.softwareID), ("software_version", metadata.softwareVersion),
        ]
        for case (let name, let value?) in optional { members[name] = .string(value) }
        if let secret {
            members["client_secret"] = .string(secret)
            members["client_secret_expires_at"] = .number(0)
        }
        return .object(members)
    }

    private func log(
        _ type: LogEventType, _ description: String, _ request: Request, ip: String?, client: Client?,
        details: [String: JSONValue] = [:]
    ) {
        var details = details
        details["mode"] = .string(mode.rawValue)
        eventLog.record(
            LogEvent(
                date: clock.now(), type: type, description: description, clientID: client?.clientID,
                clientName: client?.name, ip: ip, userAgent: request.headers[.userAgent], details: details))
    }
}
