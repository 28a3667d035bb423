import Foundation
import WardenCore
import WardenWire

/// Revocation of self-contained access tokens by grant (SPEC §5: a replayed authorization code revokes the
/// access tokens of its first use; RFC 7009 §2.1: revoking a refresh token SHOULD revoke the access tokens of
/// the same grant).
///
/// A user's access token carries the claim ``claim`` naming its grant — the refresh-token family of the code,
/// CIBA request or refresh token it came from — so revoking the family is one stored row, not a row per token:
/// the revocation list is kept as artefacts of kind ``artefactKind`` under the SHA-256 of the grant id, alive as
/// long as the longest access token can live. `/userinfo` and introspection read it for tokens that carry the
/// claim; `client_credentials` tokens carry none, so that hot path neither reads nor writes anything here.
struct AccessTokenRevocation: Sendable {
    /// The private claim naming the grant (OAuth Grant Management's `grant_id`).
    static let claim = "grant_id"
    static let artefactKind = "revoked_grant"
    /// An access token lives at most the longest API `token_lifetime` (`/resource-servers` accepts up to 30 days).
    static let longestAccessTokenLifetime: Double = 2_592_000

    let store: any ArtefactStore

    /// A revocation list kept as artefacts in `store`.
    init(store: any ArtefactStore) {
        self.store = store
    }

    /// Records `grantID` as revoked at `date`; revoking it again changes nothing.
    func revoke(grant grantID: String, at date: Date) async throws {
        do {
            try await store.putArtefact(
                kind: Self.artefactKind, hash: SecretHash.sha256Hex(grantID), payload: "",
                expiresAt: date.addingTimeInterval(Self.longestAccessTokenLifetime))
        } catch StorageError.conflict {
            // Already on the list.
        }
    }

    /// Whether the grant of a verified access token was revoked; `false` for tokens without a grant
    /// (`client_credentials`), which cost no database read.
    func isRevoked(_ token: CompactJWS, now: Date) async throws -> Bool {
        guard let grantID = token.payload[Self.claim]?.stringValue else { return false }
        return try await store.peekArtefact(kind: Self.artefactKind, hash: SecretHash.sha256Hex(grantID), now: now)
            != nil
    }
}
