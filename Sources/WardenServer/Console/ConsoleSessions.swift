import Foundation
import Hummingbird
import WardenCore
import WardenWire

/// The admin console's own sessions (SPEC §14), apart from the SSO session: a random secret in the
/// `warden_console` cookie (`Path=/admin/`, `HttpOnly`, `SameSite=Strict`, `Secure` unless the issuer is plain
/// HTTP), stored only as its SHA-256 (an artefact), with the admin's user id and the CSRF token of the console's
/// forms. A session ends after ``idleTimeout`` without a request, and in any case ``absoluteLifetime`` after
/// sign-in; a request more than ``rotationAge`` into a session's current secret swaps it for a new one.
struct ConsoleSessions: Sendable {
    static let cookieName = "warden_console"
    static let artefactKind = "console_session"
    static let idleTimeout: Double = 30 * 60
    static let absoluteLifetime: Double = 8 * 3600
    static let rotationAge: Double = 5 * 60

    /// One signed-in admin.
    struct Session: Codable, Sendable {
        var userID: String
        /// The hidden `csrf` field every console form carries (constant for the session).
        var csrf: String
        /// When the admin signed in (seconds since 1970).
        var signedInAt: Double
        /// When the current secret was issued (seconds since 1970).
        var issuedAt: Double
        /// The ID token of the sign-in: the `id_token_hint` that ends the SSO session with the console's.
        var idToken: String
    }

    let artefacts: any ArtefactStore
    let clock: any WardenClock
    let secureCookies: Bool

    init(artefacts: any ArtefactStore, clock: any WardenClock, secureCookies: Bool) {
        self.artefacts = artefacts
        self.clock = clock
        self.secureCookies = secureCookies
    }

    /// Starts a session for `userID`; returns it and the cookie that carries it.
    func start(userID: String, idToken: String) async throws -> (Session, Cookie) {
        let now = clock.now().timeIntervalSince1970
        let session = Session(
            userID: userID, csrf: RandomToken.make(bytes: 24), signedInAt: now, issuedAt: now, idToken: idToken)
        return (session, try await store(session))
    }

    /// The session of `request`, and a replacement cookie when its secret was rotated; `nil` when there is none
    /// or it ended.
    func resume(_ request: Request) async throws -> (Session, Cookie?)? {
        guard let secret = request.cookies[Self.cookieName]?.value, !secret.isEmpty else { return nil }
        let now = clock.now()
        let hash = SecretHash.sha256Hex(secret)
        guard let payload = try await artefacts.peekArtefact(kind: Self.artefactKind, hash: hash, now: now),
            var session = try? JSONDecoder().decode(Session.self, from: Data(payload.utf8)),
            now.timeIntervalSince1970 < session.signedInAt + Self.absoluteLifetime
        else { return nil }
        guard now.timeIntervalSince1970 - session.issuedAt >= Self.rotationAge else { return (session, nil) }
        guard case .consumed = try await artefacts.consumeArtefact(kind: Self.artefactKind, hash: hash, now: now)
        else { return nil }
        session.issuedAt = now.timeIntervalSince1970
        return (session, try await store(session))
    }

    /// Ends the session `request` carries; returns the cookie that removes it.
    func end(_ request: Request) async throws -> Cookie {
        if let secret = request.cookies[Self.cookieName]?.value, !secret.isEmpty {
            _ = try await artefacts.consumeArtefact(
                kind: Self.artefactKind, hash: SecretHash.sha256Hex(secret), now: clock.now())
        }
        return cookie("", maxAge: 0)
    }

    private func store(_ session: Session) async throws -> Cookie {
        let secret = RandomToken.make()
        let expiresAt = min(session.issuedAt + Self.idleTimeout, session.signedInAt + Self.absoluteLifetime)
        let payload = String(decoding: try JSONEncoder().encode(session), as: UTF8.self)
        try await artefacts.putArtefact(
            kind: Self.artefactKind, hash: SecretHash.sha256Hex(secret), payload: payload,
            expiresAt: Date(timeIntervalSince1970: expiresAt))
        return cookie(secret, maxAge: Int(expiresAt - clock.now().timeIntervalSince1970))
    }

    private func cookie(_ value: String, maxAge: Int) -> Cookie {
        Cookie(
            name: Self.cookieName, value: value, maxAge: maxAge, path: "/admin/", secure: secureCookies,
            httpOnly: true, sameSite: .strict)
    }
}
