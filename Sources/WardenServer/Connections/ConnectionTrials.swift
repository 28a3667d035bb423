import Foundation
import WardenCore
import WardenWire

/// The console's "Try" of a connection (SPEC §15 "Console"): a login through the connection that signs no one in
/// and stores nothing but its outcome — the user Warden would make or find, and the identity it would store — kept
/// 10 minutes under a random id for the console page that shows it. Kept tokens are left out.
struct ConnectionTrials: Sendable {
    let store: any ArtefactStore
    let clock: any WardenClock

    static let kind = "connection_trial"
    static let lifetime: Double = 600

    /// What a trial found: the would-be user and identity, or why the login failed.
    struct Outcome: Codable, Sendable {
        var connectionID: String
        var userID: String?
        var identity: JSONValue?
        var failure: String?

        enum CodingKeys: String, CodingKey {
            case connectionID = "connection_id"
            case userID = "user_id"
            case identity
            case failure
        }
    }

    /// The outcome of a trial login of `connection` whose upstream answered `identity` (or refused).
    static func outcome(_ identity: UpstreamUserProfile, of connection: Connection) -> Outcome {
        let federated = FederatedIdentity(
            connection: connection.name, provider: connection.strategy, userID: identity.userID)
        let stored = UserIdentity(
            connectionID: connection.id, identity: federated, profileData: identity.profile.profileData)
        return Outcome(
            connectionID: connection.id, userID: federated.wardenUserID, identity: stored.jsonValue, failure: nil)
    }

    /// Keeps `outcome` and returns its id.
    func keep(_ outcome: Outcome) async throws -> String {
        let id = RandomToken.make()
        try await store.putArtefact(
            kind: Self.kind, hash: SecretHash.sha256Hex(id),
            payload: String(decoding: try JSONEncoder().encode(outcome), as: UTF8.self),
            expiresAt: clock.now().addingTimeInterval(Self.lifetime))
        return id
    }

    /// The outcome `id` names, while it lives.
    func outcome(id: String) async throws -> Outcome? {
        try await store.peekArtefact(kind: Self.kind, hash: SecretHash.sha256Hex(id), now: clock.now())
            .flatMap { try? JSONDecoder().decode(Outcome.self, from: Data($0.utf8)) }
    }
}
