import Foundation
import WardenCore

/// Revokes a refresh-token family (SPEC §3: `/oauth/revoke`, a reused rotated token, a replayed code) with the
/// access tokens issued under it (``AccessTokenRevocation``; SPEC §5, RFC 7009 §2.1) and, per SPEC §8 cascade
/// revocation, ends the web sessions a session transfer made from it, with the refresh tokens
/// issued within them — unless the owning (native) client set `enforce_cascade_revocation: false`.
struct RefreshTokenFamilyRevocation: Sendable {
    let refreshTokens: any RefreshTokenStore
    let accessTokens: AccessTokenRevocation
    let transferredSessions: any SessionTransferStore
    /// Where the owning client's `session_transfer.enforce_cascade_revocation` is read.
    let tenant: TenantCache

    /// A revocation that revokes families in `refreshTokens` and their access tokens through `accessTokens`,
    /// and ends the sessions a session transfer made from them in `transferredSessions`, unless the client
    /// (read from `tenant`) opted out.
    init(
        refreshTokens: any RefreshTokenStore, accessTokens: AccessTokenRevocation,
        transferredSessions: any SessionTransferStore, tenant: TenantCache
    ) {
        self.refreshTokens = refreshTokens
        self.accessTokens = accessTokens
        self.transferredSessions = transferredSessions
        self.tenant = tenant
    }

    /// Revokes `familyID`, a family of the client `clientID`; returns how many of its tokens were live.
    func revoke(family familyID: String, of clientID: String, at date: Date) async throws -> Int {
        let revoked = try await refreshTokens.revokeRefreshTokenFamily(familyID, at: date)
        try await accessTokens.revoke(grant: familyID, at: date)
        let settings = try await tenant.client(id: clientID)?.client.sessionTransfer
        if settings?.enforceCascadeRevocation ?? SessionTransferConfiguration().enforceCascadeRevocation {
            _ = try await transferredSessions.endTransferredSessions(sourceFamilyID: familyID, at: date)
        }
        return revoked
    }
}
