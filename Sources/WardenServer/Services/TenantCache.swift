import Foundation
import Synchronization
public import WardenCore

/// Per-node cache of what the token path reads on every request: clients, APIs and client grants
/// (ARCHITECTURE: hot paths stay in memory), and the organizations logins name (SPEC §19) with their connections,
/// as they are first read. It is reloaded after every local change and at least every cache TTL; a miss falls
/// back to the database so a record created on another node is found at once.
public final class TenantCache: OrganizationDirectory, Sendable {
    struct Snapshot: Sendable {
        var clients: [String: ClientRecord] = [:]
        var resourceServers: [String: ResourceServer] = [:]
        var clientGrants: [String: ClientGrant] = [:]
        /// Organizations by id, filled by reads (a reload empties them), with the ids of their names.
        var organizations: [String: Organization] = [:]
        var organizationIDs: [String: String] = [:]
        var organizationConnections: [String: [OrganizationConnection]] = [:]
        /// The number of the reload that read this snapshot (0: none yet).
        var generation = 0

        static func grantKey(_ clientID: String, _ audience: String) -> String { clientID + "\u{0}" + audience }
    }

    private let state = Mutex(Snapshot())
    /// How many reloads have started: each reload's number orders it against the others.
    private let reloadsStarted = Mutex(0)
    private let store: any ClientStore & ResourceServerStore & ClientGrantStore & OrganizationStore
    /// The clients a `client_id` URL describes (`--client-metadata-documents`, SPEC §13), when on.
    private let documents: ClientMetadataDocuments?

    /// A cache, empty until ``reload()``, of the clients, APIs and client grants of `store`, and of the clients
    /// described by metadata documents when `documents` is given.
    init(
        store: any ClientStore & ResourceServerStore & ClientGrantStore & OrganizationStore,
        documents: ClientMetadataDocuments? = nil
    ) {
        self.store = store
        self.documents = documents
    }

    /// Reloads everything from storage. Reloads overlap (a local change beside another node's announcement): a
    /// reload that started before the one already applied is dropped, so a snapshot read before a change never
    /// replaces one read after it (a rotated secret's old hash coming back, say).
    public func reload() async throws {
        let generation = reloadsStarted.withLock { started in
            started += 1
            return started
        }
        var next = Snapshot(generation: generation)
        for record in try await store.clients(page: nil).items { next.clients[record.client.clientID] = record }
        for server in try await store.resourceServers(page: nil).items {
            next.resourceServers[server.identifier] = server
        }
        for grant in try await store.clientGrants(clientID: nil, audience: nil, page: nil).items {
            next.clientGrants[Snapshot.grantKey(grant.clientID, grant.audience)] = grant
        }
        state.withLock { current in
            if next.generation > current.generation { current = next }
        }
    }

    /// The client, from memory or else from storage, or else (when on) from the metadata document its id names;
    /// throws ``ClientMetadataDocuments/Failure`` when that document cannot be used.
    public func client(id: String) async throws -> ClientRecord? {
        if let hit = state.withLock({ $0.clients[id] }) { return hit }
        if let record = try await store.client(id: id) {
            state.withLock { $0.clients[id] = record }
            return record
        }
        guard let documents, documents.names(id) else { return nil }
        let client = try await documents.client(id: id)
        let issued = Date(timeIntervalSince1970: Double(client.registration?.issuedAt ?? 0))
        return ClientRecord(client: client, secretHash: nil, createdAt: issued, updatedAt: issued)
    }

    /// Whether `url` is exactly one of the callbacks of a client this node knows (SPEC §15.1: where a ticket's
    /// "Continue" may lead).
    public func isCallback(_ url: String) -> Bool {
        state.withLock { snapshot in snapshot.clients.values.contains { $0.client.callbacks.contains(url) } }
    }

    /// The API with this identifier, from memory or else from storage.
    public func resourceServer(identifier: String) async throws -> ResourceServer? {
        if let hit = state.withLock({ $0.resourceServers[identifier] }) { return hit }
        guard let server = try await store.resourceServer(idOrIdentifier: identifier),
            server.identifier == identifier
        else { return nil }
        state.withLock { $0.resourceServers[identifier] = server }
        return server
    }

    /// The union of the `authorization_details` types registered on every API, sorted (RFC 9396 §10, SPEC §2
    /// discovery's `authorization_details_types_supported`).
    public var authorizationDetailsTypes: [String] {
        let types = state.withLock { snapshot in
            Set(snapshot.resourceServers.values.flatMap { $0.authorizationDetails.map(\.type) })
        }
        return types.sorted()
    }

    /// The client grant of `clientID` for `audience`, from memory or else from storage.
    public func clientGrant(clientID: String, audience: String) async throws -> ClientGrant? {
        let key = Snapshot.grantKey(clientID, audience)
        if let hit = state.withLock({ $0.clientGrants[key] }) { return hit }
        guard let grant = try await store.clientGrants(clientID: clientID, audience: audience, page: nil).items.first
        else { return nil }
        state.withLock { $0.clientGrants[key] = grant }
        return grant
    }

    /// How many organizations a node keeps in memory at most; past it, reads go to storage.
    static let organizationsKept = 10_000

    /// The organization, from memory or else from storage (SPEC §19: every login that names one reads it).
    public func organization(id: String) async throws -> Organization? {
        let (hit, generation) = state.withLock { ($0.organizations[id], $0.generation) }
        if let hit { return hit }
        return keep(try await store.organization(id: id), readIn: generation)
    }

    public func organization(name: String) async throws -> Organization? {
        let (hit, generation) = state.withLock { snapshot in
            (snapshot.organizationIDs[name].flatMap { snapshot.organizations[$0] }, snapshot.generation)
        }
        if let hit { return hit }
        return keep(try await store.organization(name: name), readIn: generation)
    }

    public func organizationConnections(organizationID: String) async throws -> [OrganizationConnection] {
        let (hit, generation) = state.withLock { ($0.organizationConnections[organizationID], $0.generation) }
        if let hit { return hit }
        let connections = try await store.organizationConnections(organizationID: organizationID)
        state.withLock { snapshot in
            guard snapshot.generation == generation, snapshot.organizationConnections.count < Self.organizationsKept
            else { return }
            snapshot.organizationConnections[organizationID] = connections
        }
        return connections
    }

    /// Keeps what a read found, unless a reload came in between (the read may predate the change that caused it).
    private func keep(_ organization: Organization?, readIn generation: Int) -> Organization? {
        guard let organization else { return nil }
        state.withLock { snapshot in
            guard snapshot.generation == generation, snapshot.organizations.count < Self.organizationsKept else {
                return
            }
            snapshot.organizations[organization.id] = organization
            snapshot.organizationIDs[organization.name] = organization.id
        }
        return organization
    }
}
