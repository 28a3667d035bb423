import Foundation
import Hummingbird
import WardenCore
import WardenWire

/// What Warden remembers of a login it sent to an upstream (SPEC §15 "Sign-in"): kept server-side under the
/// SHA-256 of the random `state` it sent, for 10 minutes, consumed once by the callback. It is bound to the
/// login transaction it continues, the connection, and the browser that started it (the SHA-256 of a random
/// cookie the browser holds), so a state replayed, injected into another browser, or answered by another
/// connection's upstream is refused.
struct UpstreamLoginState: Codable, Sendable {
    /// The login transaction (`/u/login`'s `state`) the upstream login continues.
    var transactionID: String
    var connectionID: String
    /// SHA-256 (hex) of the browser's ``UpstreamBindingCookie``.
    var browserHash: String
    /// The `nonce` sent in the authentication request (OIDC Core §3.1.2.1).
    var nonce: String
    /// The PKCE verifier of the `code_challenge` sent, when one was (RFC 7636).
    var codeVerifier: String?
    /// Why the person went upstream; absent for a login.
    var purpose: Purpose?

    /// What an upstream login is for besides signing in.
    enum Purpose: String, Codable, Sendable {
        /// The console's "Try" (``ConnectionTrials``): the callback shows what it found and signs no one in.
        case trial
        /// `/u/link`'s proof of the existing account through one of its linked connections
        /// (``AccountLinkController``): the transaction stays at its `link` stage until the callback.
        case linkProof = "link_proof"
    }

    static let kind = "upstream_state"
    static let lifetime: Double = 600

    enum CodingKeys: String, CodingKey {
        case transactionID = "transaction_id"
        case connectionID = "connection_id"
        case browserHash = "browser_hash"
        case nonce
        case codeVerifier = "code_verifier"
        case purpose
    }
}

/// ``UpstreamLoginState``s as single-use artefacts.
struct UpstreamLoginStates: Sendable {
    let store: any ArtefactStore
    let clock: any WardenClock

    /// Stores `state` and returns the random `state` parameter that names it.
    func start(_ state: UpstreamLoginState) async throws -> String {
        let id = RandomToken.make()
        try await store.putArtefact(
            kind: UpstreamLoginState.kind, hash: SecretHash.sha256Hex(id),
            payload: String(decoding: try JSONEncoder().encode(state), as: UTF8.self),
            expiresAt: clock.now().addingTimeInterval(UpstreamLoginState.lifetime))
        return id
    }

    /// The state `id` names, if this call consumed it and `browser` is the one that started it; `nil` for an
    /// unknown, used, expired or foreign state.
    func consume(_ id: String, browser: String?) async throws -> UpstreamLoginState? {
        let result = try await store.consumeArtefact(
            kind: UpstreamLoginState.kind, hash: SecretHash.sha256Hex(id), now: clock.now())
        guard case .consumed(let payload) = result,
            let state = try? JSONDecoder().decode(UpstreamLoginState.self, from: Data(payload.utf8)),
            let browser, SecretHash.verify(browser, againstHex: state.browserHash)
        else { return nil }
        return state
    }
}

/// The cookie that binds an upstream login to the browser that started it (SPEC §15): random, `HttpOnly`, sent
/// only to `{issuer}login/callback`. An upstream's `form_post` is a cross-site POST, which a `SameSite=Lax` cookie
/// does not follow, so on an `https` issuer the cookie is `SameSite=None; Secure`.
enum UpstreamBindingCookie {
    static let name = "warden_upstream"

    /// The browser's binding value, or `nil`.
    static func value(in request: Request) -> String? {
        guard let value = request.cookies[name]?.value, !value.isEmpty else { return nil }
        return value
    }

    /// A cookie carrying `value` for the callback at `path`.
    static func make(value: String, path: String, secure: Bool) -> Cookie {
        Cookie(
            name: name, value: value, maxAge: Int(UpstreamLoginState.lifetime), path: path, secure: secure,
            httpOnly: true, sameSite: secure ? Cookie.SameSite.none : .lax)
    }
}
