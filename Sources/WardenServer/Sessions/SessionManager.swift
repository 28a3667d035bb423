import Foundation
import Hummingbird
import WardenCore
import WardenWire

/// The SSO sessions of the hosted login (SPEC §5): a session begins with a password login, is found again
/// through ``SessionCookie``, lives at most 30 days and ends after 3 idle days (each use moves the idle end,
/// never past the absolute one), and ends at logout.
struct SessionManager: Sendable {
    static let idleLifetime: Double = 3 * 86_400
    static let absoluteLifetime: Double = 30 * 86_400
    /// `Session.method` of a session that began with the password form.
    static let passwordMethod = "password"

    let store: any SessionStore
    let clock: any WardenClock
    /// Whether cookies carry `Secure` (every issuer but a plain-HTTP one).
    let secureCookies: Bool

    /// The sessions of `store`; `secureCookies` unless the issuer is plain HTTP.
    init(store: any SessionStore, clock: any WardenClock, secureCookies: Bool) {
        self.store = store
        self.clock = clock
        self.secureCookies = secureCookies
    }

    /// The active session the request's cookie names, after recording this use; `nil` when there is none or
    /// it has ended.
    func current(_ request: Request) async throws -> Session? {
        guard let secret = SessionCookie.secret(in: request),
            var session = try await store.session(secretHash: SecretHash.sha256Hex(secret))
        else { return nil }
        let now = storedNow()
        guard session.isActive(at: now) else { return nil }
        session.lastActiveAt = now
        session.idleExpiresAt = min(now.addingTimeInterval(Self.idleLifetime), session.expiresAt)
        do {
            try await store.updateSession(session)
        } catch StorageError.notFound {
            return nil  // ended by a concurrent logout
        }
        return session
    }

    /// Records a login of `userID` by `method` with the methods `amr` (a password's, by default; a connection's
    /// login claims none of the upstream's, SPEC §15). A session of the same user gets a new `authTime` (SPEC §5:
    /// a new login updates `auth_time`) and keeps the methods it did (SPEC §12: `mfa` once done in the session);
    /// otherwise a new session replaces `existing`, and the cookie to set is returned with it.
    func signIn(
        userID: String, existing: Session?, method: String = passwordMethod, amr: [AuthenticationMethod] = [.password]
    ) async throws -> (session: Session, cookie: Cookie?) {
        let now = storedNow()
        if var session = existing, session.userID == userID {
            session.authTime = now
            for method in amr.reversed() where !session.amr.contains(method) { session.amr.insert(method, at: 0) }
            session.lastActiveAt = now
            session.idleExpiresAt = min(now.addingTimeInterval(Self.idleLifetime), session.expiresAt)
            try await store.updateSession(session)
            return (session, nil)
        }
        if let existing { _ = try await store.deleteSession(id: existing.id) }
        let (session, cookie) = try await begin(userID: userID, method: method, amr: amr)
        return (session, cookie)
    }

    /// Now, to the millisecond, as the store keeps a session's times: the session handed back and the one stored
    /// are the same, so the first code's `auth_time` is the one every later code of the session carries (OIDC
    /// Core §2), and two logins `n` seconds apart on the clock are `n` seconds apart in the session.
    private func storedNow() -> Date {
        Date(millisecondsSince1970: clock.now().millisecondsSince1970)
    }

    /// Records that `session` did a second factor (SPEC §12): later logins through it do not ask again.
    func recordSecondFactor(in session: Session) async throws -> Session {
        var session = session
        guard !session.amr.contains(.multiFactor) else { return session }
        session.amr.append(.multiFactor)
        try await store.updateSession(session)
        return session
    }

    /// Begins a new session of `userID` that authenticated now by `method` (a session transfer names the
    /// refresh-token family it came from, SPEC §8), and the cookie that carries it.
    func begin(
        userID: String, method: String, sourceFamilyID: String? = nil, amr: [AuthenticationMethod] = []
    ) async throws -> (session: Session, cookie: Cookie) {
        let now = storedNow()
        let secret = RandomToken.make()
        let session = Session(
            id: RandomToken.identifier(prefix: "", length: 32), userID: userID, createdAt: now, authTime: now,
            lastActiveAt: now, expiresAt: now.addingTimeInterval(Self.absoluteLifetime),
            idleExpiresAt: now.addingTimeInterval(Self.idleLifetime), method: method, sourceFamilyID: sourceFamilyID,
            amr: amr)
        try await store.insertSession(session, secretHash: SecretHash.sha256Hex(secret))
        let cookie = SessionCookie.make(secret: secret, maxAge: Int(Self.absoluteLifetime), secure: secureCookies)
        return (session, cookie)
    }

    /// Ends the session the request's cookie names, active or not; returns it when there was one.
    func end(_ request: Request) async throws -> Session? {
        guard let secret = SessionCookie.secret(in: request),
            let session = try await store.session(secretHash: SecretHash.sha256Hex(secret))
        else { return nil }
        return try await store.deleteSession(id: session.id) ? session : nil
    }
}
