import Foundation
import WardenCore
import WardenWire

/// The upstream side of a federated SSO session (SPEC §15 "Logs and logout"): which connection signed the
/// session in and the ID token the upstream issued for it, kept as long as the session may live, so that
/// `/oidc/logout?federated` can end the upstream's session too (OIDC RP-Initiated Logout 1.0 §2,
/// `id_token_hint`). Kept under the SHA-256 of the session id, consumed by the logout.
struct UpstreamSessions: Sendable {
    let store: any ArtefactStore
    let clock: any WardenClock

    struct Entry: Codable, Sendable {
        var connectionID: String
        /// The upstream's `end_session_endpoint` (OIDC Session Management discovery metadata).
        var endSessionEndpoint: String
        var idToken: String

        enum CodingKeys: String, CodingKey {
            case connectionID = "connection_id"
            case endSessionEndpoint = "end_session_endpoint"
            case idToken = "id_token"
        }
    }

    static let kind = "upstream_session"

    /// Remembers that `session` was signed in through an upstream that publishes an `end_session_endpoint`; a session
    /// signed in again keeps its first upstream session.
    func record(_ entry: Entry, for session: Session) async throws {
        do {
            try await store.putArtefact(
                kind: Self.kind, hash: SecretHash.sha256Hex(session.id),
                payload: String(decoding: try JSONEncoder().encode(entry), as: UTF8.self),
                expiresAt: session.expiresAt)
        } catch StorageError.conflict {
            return
        }
    }

    /// The upstream side of the session `sessionID`, once.
    func take(sessionID: String) async throws -> Entry? {
        guard
            case .consumed(let payload) = try await store.consumeArtefact(
                kind: Self.kind, hash: SecretHash.sha256Hex(sessionID), now: clock.now())
        else { return nil }
        return try? JSONDecoder().decode(Entry.self, from: Data(payload.utf8))
    }
}
