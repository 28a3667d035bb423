import Foundation
import Logging
import WardenCore
import WardenWire

/// First-start setup (SPEC §1 "Bootstrap"): signing keys (made by ``KeyManager``), the system
/// Management API resource server, and the "Warden Management" client with a client grant for every
/// Management API scope. Idempotent; on a later start with a different `WARDEN_BOOTSTRAP_CLIENT_SECRET`
/// the management client's secret is updated to match.
public struct Bootstrap: Sendable {
    /// The `client_metadata` marker of the management client.
    static let marker = ("warden_system", "management")
    let runtime: WardenRuntime

    public init(runtime: WardenRuntime) {
        self.runtime = runtime
    }

    /// What a start should tell the operator once (on stderr, never in the structured log).
    public struct Outcome: Sendable {
        /// Set when this start created the management client with a generated secret.
        public var createdClient: (id: String, secret: String)?
        /// The management client's id (created now or before).
        public var managementClientID = ""
    }

    @discardableResult
    public func run() async throws -> Outcome {
        let store = runtime.store
        let configuration = runtime.configuration
        let now = runtime.clock.now()
        if let secret = configuration.bootstrapClientSecret, secret.count < 32 {
            throw BootstrapError.secretTooShort
        }
        let audience = configuration.managementAudience
        if var api = try await store.resourceServer(idOrIdentifier: audience),
            Set(api.scopes.map(\.value)) != Set(ManagementScopes.all)
        {
            // A release that adds Management scopes (SPEC §15's connections scopes) adds them to the system API.
            api.scopes = ManagementScopes.all.map { ResourceServer.Scope(value: $0) }
            try await store.updateResourceServer(api)
        } else if try await store.resourceServer(idOrIdentifier: audience) == nil {
            var api = ResourceServer(
                id: RandomToken.identifier(prefix: "", length: 24), identifier: audience,
                name: "Warden Management API")
            api.scopes = ManagementScopes.all.map { ResourceServer.Scope(value: $0) }
            api.isSystem = true
            try await store.insertResourceServer(api)
        }
        var outcome = Outcome()
        let existing = try await managementClient()
        let client: ClientRecord
        if let existing {
            client = try await updateSecretIfNeeded(existing)
        } else {
            let id = configuration.bootstrapClientID ?? RandomToken.identifier(prefix: "", length: 32)
            let secret = configuration.bootstrapClientSecret ?? RandomToken.make()
            var model = Client(clientID: id, name: "Warden Management")
            model.appType = .nonInteractive
            model.grantTypes = [.clientCredentials]
            model.clientMetadata = [Self.marker.0: Self.marker.1]
            client = ClientRecord(
                client: model, secretHash: SecretHash.sha256Hex(secret), createdAt: now, updatedAt: now)
            try await store.insertClient(client)
            if configuration.bootstrapClientSecret == nil { outcome.createdClient = (id, secret) }
        }
        let grants = try await store.clientGrants(
            clientID: client.client.clientID, audience: audience, page: nil)
        if var grant = grants.items.first {
            if Set(grant.scope) != Set(ManagementScopes.all) {
                grant.scope = ManagementScopes.all
                try await store.updateClientGrant(grant)
            }
        } else {
            try await store.insertClientGrant(
                ClientGrant(
                    id: RandomToken.identifier(prefix: "cgr_", length: 16), clientID: client.client.clientID,
                    audience: audience, scope: ManagementScopes.all))
        }
        try await ensureConsole()
        try await runtime.cache.reload()
        outcome.managementClientID = client.client.clientID
        return outcome
    }

    /// The client named by `WARDEN_BOOTSTRAP_CLIENT_ID`, else the one carrying the marker.
    func managementClient() async throws -> ClientRecord? {
        if let id = runtime.configuration.bootstrapClientID {
            return try await runtime.store.client(id: id)
        }
        return try await runtime.store.clients(page: nil).items.first {
            $0.client.clientMetadata[Self.marker.0] == Self.marker.1
        }
    }

    private func updateSecretIfNeeded(_ record: ClientRecord) async throws -> ClientRecord {
        guard let secret = runtime.configuration.bootstrapClientSecret,
            record.secretHash.map({ !SecretHash.verify(secret, againstHex: $0) }) ?? true
        else { return record }
        var updated = record
        updated.secretHash = SecretHash.sha256Hex(secret)
        updated.updatedAt = runtime.clock.now()
        try await runtime.store.updateClient(updated)
        runtime.logger.warning(
            "management client secret updated from WARDEN_BOOTSTRAP_CLIENT_SECRET",
            metadata: ["client_id": "\(record.client.clientID)"])
        return updated
    }
}

/// A configuration error found at bootstrap.
public enum BootstrapError: Error, CustomStringConvertible {
    case secretTooShort
    /// The database has no management client to rotate (the server never started on it).
    case noManagementClient
    /// The secret comes from `WARDEN_BOOTSTRAP_CLIENT_SECRET`: the next start would put it back.
    case secretFromEnvironment

    public var description: String {
        switch self {
        case .secretTooShort: "WARDEN_BOOTSTRAP_CLIENT_SECRET must be at least 32 characters"
        case .noManagementClient: "The database has no Warden Management client: start `warden serve` once first"
        case .secretFromEnvironment:
            "WARDEN_BOOTSTRAP_CLIENT_SECRET is set and would replace a rotated secret on the next start: change it there"
        }
    }
}
