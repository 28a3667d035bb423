import Foundation
import WardenCore

/// Revokes a refresh-token family (SPEC §3: `/oauth/revoke`, a reused rotated token, a replayed code) with the
/// access tokens issued under it (``AccessTokenRevocation``; SPEC §5, RFC 7009 §2.1) and, per SPEC §8 cascade
/// revocation, ends the web sessions a session transfer made from it, with the refresh tokens
/// issued within them — unless the owning (native) client set `enforce_cascade_revocation: false`.
struct RefreshTokenFamilyRevocation: Sendable {
    let runtime: WardenRuntime

    /// Revokes `familyID`, a family of the client `clientID`; returns how many of its tokens were live.
    func revoke(family familyID: String, of clientID: String, at date: Date) async throws -> Int {
        let revoked = try await runtime.store.revokeRefreshTokenFamily(familyID, at: date)
        try await AccessTokenRevocation(store: runtime.store).revoke(grant: familyID, at: date)
        let settings = try await runtime.cache.client(id: clientID)?.client.sessionTransfer
        if settings?.enforceCascadeRevocation ?? SessionTransferConfiguration().enforceCascadeRevocation {
            _ = try await runtime.store.endTransferredSessions(sourceFamilyID: familyID, at: date)
        }
        return revoked
    }
}
