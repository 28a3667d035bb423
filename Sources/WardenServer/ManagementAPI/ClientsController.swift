import Foundation
import Hummingbird
import WardenCore
import WardenWire

/// `/api/v2/clients` (SPEC §4, §9): applications, their secrets and their `private_key_jwt` keys.
///
/// Secrets are generated here (256 bits), stored only as SHA-256 hashes and returned once: in the create
/// response and by `rotate-secret`. Registered PEMs are never returned.
struct ClientsController {
    let runtime: WardenRuntime
    var audit: ManagementAudit { ManagementAudit(runtime: runtime) }

    /// The accepted values of each property with an open value set (SPEC §4), in the order error messages
    /// list them.
    static let appTypes: [AppType] = [.native, .spa, .regularWeb, .nonInteractive]
    static let authMethods: [TokenEndpointAuthMethod] = [.none, .clientSecretPost, .clientSecretBasic]
    static let grantTypes: [GrantType] = [
        .clientCredentials, .authorizationCode, .refreshToken, .ciba, .tokenExchange, .webAuthn, "implicit",
        "password",
    ]
    static let deliveryModes: [BackchannelTokenDeliveryMode] = [.poll, .ping]
    static let rotationTypes: [RefreshTokenConfiguration.RotationType] = [.rotating, .nonRotating]
    static let expirationTypes: [RefreshTokenConfiguration.ExpirationType] = [.expiring, .nonExpiring]
    /// What a body may set: every client property except the server-owned `client_id` and `registration`.
    static let writable = Client.propertyNames.subtracting(["client_id", "registration"])

    func addRoutes(to group: RouterGroup<WardenRequestContext>) {
        group.get("clients") { request, context in
            try context.requireScope("read:clients")
            let (page, totals) = try ManagementRequest.paging(request)
            let result = try await runtime.store.clients(page: page)
            let items = try result.items.map { try Self.representation($0.client) }
            return ManagementResponse.list(
                items, total: result.total, page: page, includeTotals: totals, name: "clients")
        }
        group.post("clients") { request, context in
            try await audit.change("Create a client", scope: "create:clients", request, context, reloadsTenant: true) {
                let (client, secret) = try await create(try await ManagementRequest.object(request))
                return Response.json(try Self.representation(client, secret: secret), status: .created)
            }
        }
        group.get("clients/:id") { _, context in
            try context.requireScope("read:clients")
            return Response.json(try Self.representation(try await record(context).client))
        }
        group.patch("clients/:id") { request, context in
            try await audit.change("Update a client", scope: "update:clients", request, context, reloadsTenant: true) {
                var record = try await changeableRecord(context)
                try await update(&record, with: try await ManagementRequest.object(request))
                return Response.json(try Self.representation(record.client))
            }
        }
        group.delete("clients/:id") { request, context in
            try await audit.change("Delete a client", scope: "delete:clients", request, context, reloadsTenant: true) {
                let record = try await changeableRecord(context)
                guard try await runtime.store.deleteClient(id: record.client.clientID) else { throw Self.notFound }
                return ManagementResponse.noContent
            }
        }
        group.post("clients/:id/rotate-secret") { request, context in
            try await audit.change(
                "Rotate a client secret", scope: "update:clients", request, context, reloadsTenant: true
            ) {
                var record = try await changeableRecord(context)
                let secret = try await rotateSecret(&record)
                return Response.json(try Self.representation(record.client, secret: secret))
            }
        }
    }

    private static let notFound = ManagementError.notFound("client", "The client does not exist")

    private func record(_ context: WardenRequestContext) async throws -> ClientRecord {
        try await record(id: try ManagementRequest.parameter("id", of: context))
    }

    /// The client `id`, or 404 `inexistent_client`.
    func record(id: String) async throws -> ClientRecord {
        guard let record = try await runtime.store.client(id: id) else { throw Self.notFound }
        return record
    }

    /// The client named by the path, unless it is the bootstrap management client (see ``changeable(_:)``).
    private func changeableRecord(_ context: WardenRequestContext) async throws -> ClientRecord {
        try changeable(try await record(context))
    }

    /// `record`, unless it is the bootstrap management client, which the API it authorizes cannot change,
    /// delete or rotate (403 `operation_not_allowed`, like the system API, SPEC §1); nor can the console.
    func changeable(_ record: ClientRecord) throws -> ClientRecord {
        guard !Bootstrap.isManagementClient(record.client, configuration: runtime.configuration) else {
            throw ManagementError.operationNotAllowed(
                "The Warden Management client cannot be changed or deleted through the Management API; rotate its"
                    + " secret with `warden bootstrap rotate-secret`")
        }
        return record
    }

    /// A new secret for `record` (SPEC §4: only a client that authenticates with a secret has one to rotate),
    /// stored as its hash; the secret itself, to show once. Shared by `rotate-secret` and the console.
    func rotateSecret(_ record: inout ClientRecord) async throws -> String {
        guard Self.usesSecret(record.client) else {
            throw ManagementError.invalidBody(
                "The client does not authenticate with a secret (token_endpoint_auth_method is "
                    + (record.client.tokenEndpointAuthMethod ?? .privateKeyJWT).rawValue + ")")
        }
        let secret = RandomToken.make()
        record.secretHash = SecretHash.sha256Hex(secret)
        record.updatedAt = runtime.clock.now()
        let changed = record
        try await ManagementRequest.write("client") {
            try await runtime.store.updateClient(changed)
        }
        return secret
    }

    /// Validates `members` as the body of `POST /clients` and stores the client; the client and its secret
    /// (when its method uses one), to show once. Shared by the Management API and the console (SPEC §14).
    func create(_ members: [String: JSONValue]) async throws -> (Client, secret: String?) {
        let body = try ManagementBody(checking: members, allowed: Self.writable)
        var client = Client(clientID: RandomToken.identifier(prefix: "", length: 32), name: "")
        client.tokenEndpointAuthMethod = nil  // given, or chosen by resolveAuthentication
        _ = try body.requiredString("name")
        try await apply(body, to: &client)
        let secret = Self.usesSecret(client) ? RandomToken.make() : nil
        let now = runtime.clock.now()
        let record = ClientRecord(
            client: client, secretHash: secret.map(SecretHash.sha256Hex), createdAt: now, updatedAt: now)
        try await ManagementRequest.write("client", conflict: "A client with this client_id already exists") {
            try await runtime.store.insertClient(record)
        }
        return (client, secret)
    }

    /// Validates `members` as the body of `PATCH /clients/{id}` and stores `record` with its changes (a
    /// changeable one: ``changeable(_:)``). Shared by the Management API and the console (SPEC §14).
    func update(_ record: inout ClientRecord, with members: [String: JSONValue]) async throws {
        let body = try ManagementBody(checking: members, allowed: Self.writable)
        try await apply(body, to: &record.client)
        // SPEC §4: a client moved to `private_key_jwt` (or `none`) loses its secret at once.
        if !Self.usesSecret(record.client) { record.secretHash = nil }
        record.updatedAt = runtime.clock.now()
        let changed = record
        try await ManagementRequest.write("client") {
            try await runtime.store.updateClient(changed)
        }
    }

    /// Sets every property the body carries; `null` resets a property to its default or removes an optional
    /// object (SPEC §9). Shared by create (onto a new client) and PATCH (onto the stored one).
    private func apply(_ body: ManagementBody, to client: inout Client) async throws {
        let defaults = Client(clientID: client.clientID, name: client.name)
        if body.has("name") { client.name = try body.requiredString("name") }
        if body.has("description") { client.description = try body.string("description") }
        if body.has("app_type") { client.appType = try body.value("app_type", oneOf: Self.appTypes) }
        if body.has("is_first_party") { client.isFirstParty = try body.bool("is_first_party") ?? defaults.isFirstParty }
        if body.has("grant_types") { client.grantTypes = try body.values("grant_types", oneOf: Self.grantTypes) ?? [] }
        if body.has("callbacks") { client.callbacks = try body.urls("callbacks", schemes: nil) ?? [] }
        if body.has("allowed_logout_urls") {
            client.allowedLogoutURLs = try body.urls("allowed_logout_urls", schemes: nil) ?? []
        }
        if body.has("allowed_origins") { client.allowedOrigins = try body.urls("allowed_origins") ?? [] }
        if body.has("web_origins") { client.webOrigins = try body.urls("web_origins") ?? [] }
        if body.has("initiate_login_uri") { client.initiateLoginURI = try body.url("initiate_login_uri") }
        if body.has("organization_usage") {
            client.organizationUsage = try body.value("organization_usage", oneOf: OrganizationUsage.all)
        }
        if body.has("organization_require_behavior") {
            client.organizationRequireBehavior = try body.value(
                "organization_require_behavior", oneOf: OrganizationRequireBehavior.all)
        }
        if body.has("token_endpoint_auth_method") {
            client.tokenEndpointAuthMethod = try body.value("token_endpoint_auth_method", oneOf: Self.authMethods)
        }
        if body.has("client_authentication_methods") {
            client.clientAuthenticationMethods = try authenticationMethods(
                body, existing: client.clientAuthenticationMethods?.privateKeyJWT?.credentials ?? [])
        }
        if body.has("jwt_configuration") {
            client.jwtConfiguration = try Self.jwtConfiguration(body)
            _ = try await runtime.keys.currentKey(for: client.jwtConfiguration.alg)
        }
        if body.has("refresh_token") { client.refreshToken = try Self.refreshToken(body) }
        if body.has("session_transfer") { client.sessionTransfer = try Self.sessionTransfer(body) }
        if body.has("backchannel_token_delivery_mode") {
            client.backchannelTokenDeliveryMode = try body.value(
                "backchannel_token_delivery_mode", oneOf: Self.deliveryModes)
        }
        if body.has("backchannel_client_notification_endpoint") {
            client.backchannelClientNotificationEndpoint = try body.url("backchannel_client_notification_endpoint")
        }
        if body.has("client_metadata") { client.clientMetadata = try Self.metadata(body) }
        try Self.resolveAuthentication(body, &client)
        if client.backchannelTokenDeliveryMode == .ping, client.backchannelClientNotificationEndpoint == nil {
            throw body.invalid(
                "backchannel_client_notification_endpoint", "Required when backchannel_token_delivery_mode is ping")
        }
    }

    /// `private_key_jwt` replaces the secret methods (SPEC §4): with registered keys the client has no
    /// `token_endpoint_auth_method`; without them it has one (`client_secret_post` by default).
    private static func resolveAuthentication(_ body: ManagementBody, _ client: inout Client) throws {
        guard client.clientAuthenticationMethods?.privateKeyJWT != nil else {
            client.clientAuthenticationMethods = nil
            if client.tokenEndpointAuthMethod == nil { client.tokenEndpointAuthMethod = .clientSecretPost }
            return
        }
        if try body.string("token_endpoint_auth_method") != nil {
            throw body.invalid(
                "token_endpoint_auth_method", "Must be null when client_authentication_methods.private_key_jwt is set")
        }
        client.tokenEndpointAuthMethod = nil
    }

    /// `client_authentication_methods.private_key_jwt.credentials`: new public keys
    /// `{credential_type: "public_key", name, pem, alg?}`, whose PEM must parse, or (on PATCH) `{id}` of a key
    /// the client already has.
    private func authenticationMethods(
        _ body: ManagementBody, existing: [ClientCredential]
    ) throws -> ClientAuthenticationMethods? {
        guard let methods = try body.object("client_authentication_methods", allowed: ["private_key_jwt"]),
            let privateKeyJWT = try methods.object("private_key_jwt", allowed: ["credentials"])
        else { return nil }
        let entries =
            try privateKeyJWT.objects(
                "credentials", allowed: ["id", "credential_type", "name", "pem", "alg"]) ?? []
        guard !entries.isEmpty else {
            throw privateKeyJWT.invalid("credentials", "At least one credential is required")
        }
        let credentials = try entries.map { entry in
            if let id = try entry.string("id") {
                guard entry.members.count == 1, let kept = existing.first(where: { $0.id == id }) else {
                    throw entry.invalid("id", "Not a credential of this client; new keys are given without an id")
                }
                return kept
            }
            return try newCredential(entry)
        }
        return ClientAuthenticationMethods(privateKeyJWT: .init(credentials: credentials))
    }

    private func newCredential(_ entry: ManagementBody) throws -> ClientCredential {
        guard try entry.string("credential_type", oneOf: ["public_key"]) != nil else {
            throw entry.invalid("credential_type", "Missing required property")
        }
        let pem = try entry.requiredString("pem")
        guard let verifier = try? JWSVerifier(pem: pem) else {
            throw entry.invalid("pem", "Not a PEM-encoded RSA or P-256 public key")
        }
        let alg = try entry.string("alg", oneOf: ["RS256", "PS256", "ES256"])
        if let alg, !verifier.accepts(alg: alg) {
            throw entry.invalid("alg", "The key cannot verify \(alg) signatures")
        }
        var credential = ClientCredential(
            id: RandomToken.identifier(prefix: "cred_"), credentialType: "public_key",
            name: try entry.string("name"), pem: pem, alg: alg)
        credential.createdAt = ManagementResponse.timestamp(runtime.clock.now()).stringValue
        return credential
    }

    private static func jwtConfiguration(_ body: ManagementBody) throws -> JWTConfiguration {
        var configuration = JWTConfiguration()
        guard let object = try body.object("jwt_configuration", allowed: ["alg", "lifetime_in_seconds"]) else {
            return configuration
        }
        if let alg = try object.string("alg", oneOf: SigningAlgorithm.allCases.map(\.rawValue)) {
            configuration.alg = SigningAlgorithm(rawValue: alg)!
        }
        if let lifetime = try object.integer("lifetime_in_seconds", in: 1...2_592_000) {
            configuration.lifetimeInSeconds = lifetime
        }
        return configuration
    }

    private static func refreshToken(_ body: ManagementBody) throws -> RefreshTokenConfiguration {
        var configuration = RefreshTokenConfiguration()
        guard
            let object = try body.object(
                "refresh_token", allowed: ["rotation_type", "expiration_type", "token_lifetime", "leeway"])
        else { return configuration }
        if let rotation = try object.value("rotation_type", oneOf: Self.rotationTypes) {
            configuration.rotationType = rotation
        }
        if let expiration = try object.value("expiration_type", oneOf: Self.expirationTypes) {
            configuration.expirationType = expiration
        }
        if let lifetime = try object.integer("token_lifetime", in: 1...31_557_600) {
            configuration.tokenLifetime = lifetime
        }
        if let leeway = try object.integer("leeway", in: 0...60) { configuration.leeway = leeway }
        return configuration
    }

    /// `session_transfer` (SPEC §8 table): enum values checked, unknown sub-properties refused.
    private static func sessionTransfer(_ body: ManagementBody) throws -> SessionTransferConfiguration? {
        guard
            let object = try body.object("session_transfer", allowed: SessionTransferConfiguration.propertyNames)
        else { return nil }
        var configuration = SessionTransferConfiguration()
        if let flag = try object.bool("can_create_session_transfer_token") {
            configuration.canCreateSessionTransferToken = flag
        }
        if let methods = try object.strings("allowed_authentication_methods", oneOf: ["cookie", "query"]) {
            configuration.allowedAuthenticationMethods = methods
        }
        if let binding = try object.value("enforce_device_binding", oneOf: DeviceBinding.enforced) {
            configuration.enforceDeviceBinding = binding
        }
        if let flag = try object.bool("allow_refresh_token") { configuration.allowRefreshToken = flag }
        if let flag = try object.bool("enforce_cascade_revocation") { configuration.enforceCascadeRevocation = flag }
        return configuration
    }

    /// `client_metadata`: an object of string values; the bootstrap client's marker key is reserved.
    private static func metadata(_ body: ManagementBody) throws -> [String: String] {
        var metadata: [String: String] = [:]
        for (key, value) in try body.jsonObject("client_metadata") ?? [:] {
            guard key != Bootstrap.markerKey else {
                throw body.invalid("client_metadata.\(key)", "Reserved for the Warden Management client")
            }
            guard let text = value.stringValue else {
                throw body.invalid("client_metadata.\(key)", "Expected type string but found \(value.typeName)")
            }
            metadata[key] = text
        }
        return metadata
    }

    /// Whether the client authenticates with a secret, and so gets one.
    static func usesSecret(_ client: Client) -> Bool {
        client.tokenEndpointAuthMethod?.usesSecret ?? false
    }

    /// The client as the Management API shows it: never a secret's hash nor a registered PEM; the secret
    /// itself only when it was just made.
    static func representation(_ client: Client, secret: String? = nil) throws -> JSONValue {
        var shown = client
        if let credentials = client.clientAuthenticationMethods?.privateKeyJWT?.credentials {
            shown.clientAuthenticationMethods = ClientAuthenticationMethods(
                privateKeyJWT: .init(
                    credentials: credentials.map {
                        var credential = $0
                        credential.pem = nil
                        return credential
                    }))
        }
        var members = try ManagementResponse.members(of: shown)
        if let secret { members["client_secret"] = .string(secret) }
        return .object(members)
    }
}
