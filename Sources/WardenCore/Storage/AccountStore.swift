public import struct Foundation.Date

/// What the database connection's accounts keep beyond the user (SPEC §15.1): the password history, and what a
/// password reset ends (the user's sessions and refresh-token families, their login lock).
public protocol AccountStore: Sendable {
    /// Records `hash` as the user's newest password (set at `date`), keeping only the newest `keep` of theirs.
    func recordPassword(userID: String, hash: String, at date: Date, keep: Int) async throws
    /// The user's recorded password hashes, newest first, at most `limit`.
    func passwordHistory(userID: String, limit: Int) async throws -> [String]
    /// Ends every SSO session of the user; returns how many ended.
    func deleteSessions(userID: String) async throws -> Int
    /// The refresh-token families of the user that still hold a token not revoked, each with its client, in one
    /// query (an index on `user_id`).
    func liveRefreshTokenFamilies(userID: String) async throws -> [RefreshTokenFamily]
    /// Ends the user's password-login lock, whether or not it is still in force, and forgets their failures (a
    /// password reset clears a lockout, SPEC §15.1).
    func unlockLogin(userID: String) async throws
}

/// A refresh-token family and the client it was issued to.
public struct RefreshTokenFamily: Sendable, Equatable {
    public var familyID: String
    public var clientID: String

    public init(familyID: String, clientID: String) {
        self.familyID = familyID
        self.clientID = clientID
    }
}
